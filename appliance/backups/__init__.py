"""Backups of the whole installation, their restore, and the upgrade's safety net.

- archive.py: the archive's format (tar.gz: the database and the queue copied with SQLite's online
  backup API, media, and a manifest last with every member's hash and the secret key sealed under
  the backup key), written and read with no database of its own;
- keys.py: the backup key (shown once; it seals the secret key inside each archive);
- service.py: backups as the installation's administrators see them (start one, its progress,
  retention, the daily schedule, download, delete);
- worker.py: the archive written by a process of its own (the CLI's hidden `backup-worker`), so a
  backup does not take the server's interpreter lock from its requests;
- restore.py: an archive checked whole, then swapped into a data directory (a journal makes the swap
  finish after a crash); `appliance restore` and /setup's "Restore from a backup" use it;
- upgrade.py: a start with migrations to run takes a PRE_UPGRADE backup first, and puts it back if a
  migration fails.
"""
