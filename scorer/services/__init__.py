"""Everything that changes the database, one module per thing kept: tables (an evening),
tournaments, groups, archives."""
