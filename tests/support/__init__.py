"""What the tests share, by concept: tables, groups, tournaments, papers, languages, the
migrations, random hands, the worked examples, real servers, races between them, Chromium
and its devices, and a clock the test moves on. No test module imports another's helpers:
whatever two modules use lives here. The fixtures among them (the browser's, the devices',
the races', the clock's) are plugins registered in tests/conftest.py, so a test names them
as any other fixture."""
