"""The database: models, the write locks, the table queue, the statements of a hand's
write, pooled connections, backups."""
