"""The files Haferl writes and reads back (an evening's JSON, a group's and a tournament's
archive), parsed and checked without Flask or a database."""
