"""`python -m appliance COMMAND` (also installed as `appliance`)."""

from __future__ import annotations

import argparse
import getpass
import json
import platform
import sys

import appliance
from appliance.core.db import StartupError
from appliance.core.errors import AppError
from appliance.settings import load_settings, settings_markdown


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="appliance", description="Business messaging appliance")
    parser.add_argument("--data-dir", help="data directory (APPLIANCE_DATA_DIR)")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="migrate, then serve HTTP and run background tasks")
    serve.add_argument("--host", help="listen address (APPLIANCE_HOST)")
    serve.add_argument("--port", type=int, help="listen port (APPLIANCE_PORT)")
    serve.add_argument("--threads", type=int, help="request threads (APPLIANCE_THREADS)")
    serve.add_argument("--sandbox", action="store_true", default=None,
                       help="run the network simulator in-process; new organizations get a simulated number (APPLIANCE_SANDBOX)")

    netsim = commands.add_parser("netsim", help="run the chat network simulator alone (a Graph API double)")
    netsim.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1)")
    netsim.add_argument("--port", type=int, default=8090, help="listen port (default 8090)")

    commands.add_parser("migrate", help="apply database migrations and exit")
    commands.add_parser("doctor", help="print versions and paths, and check the machine")
    move = commands.add_parser("migrate-to-postgres", help="copy this installation's SQLite database into an empty "
                               "PostgreSQL database, verify it, and say what to change (the server stopped)")
    move.add_argument("url", help="postgresql://user:password@host:port/database")
    commands.add_parser("backup", help="make a backup now, beside a running server or not (prints the archive's path)")
    restore = commands.add_parser("restore", help="restore a backup archive into the data directory (the server stopped)")
    restore.add_argument("archive", help="the archive (.tar.gz) a backup made")
    restore.add_argument("--key", required=True, help="the backup key shown when the archive was made")
    commands.add_parser("backup-worker", help=argparse.SUPPRESS)  # a backup's own process (backups/worker.py)
    commands.add_parser("settings", help="print the settings table (Markdown)")
    service = commands.add_parser("service", help="the Windows service (docs/operating.md, Windows)").add_subparsers(
        dest="service_command", required=True)
    service.add_parser("run", help="run as the Windows service; Windows' service manager starts this (the installer registers it)")
    service.add_parser("settings-file", help="write the settings file the Windows installer installs").add_argument("path")

    staff = commands.add_parser("staff", help="service-team tools").add_subparsers(dest="staff_command", required=True)
    impersonate = staff.add_parser("impersonate", help="issue a 10-minute impersonation token")
    impersonate.add_argument("email")
    impersonate.add_argument("--by", default=f"{getpass.getuser()}@staff",
                             help="who impersonates (carried in the JWT's impersonatedBy)")

    suspend = staff.add_parser("suspend", help="suspend an organization (its routes answer 403)")
    suspend.add_argument("slug")
    suspend.add_argument("--reason", default=None)
    unsuspend = staff.add_parser("unsuspend", help="lift an organization's suspension")
    unsuspend.add_argument("slug")
    plan = staff.add_parser("plan", help="change an organization's plan (data/plans.json)")
    plan.add_argument("slug")
    plan.add_argument("plan")
    admin = staff.add_parser("admin", help="name an administrator of the installation (the /installation routes, the Go live page)")
    admin.add_argument("email")
    admin.add_argument("--remove", action="store_true", help="stop naming them (never the last one)")

    oauth = commands.add_parser("oauth", help="third-party applications (OAuth clients)").add_subparsers(
        dest="oauth_command", required=True)
    register = oauth.add_parser("register", help="register an application; prints its client id (and secret, once)")
    register.add_argument("--name", required=True)
    register.add_argument("--redirect-uri", action="append", required=True, dest="redirect_uris",
                          help="exact URI, repeat for several; http only for localhost")
    register.add_argument("--scope", action="append", required=True, dest="scopes",
                          help="permission key the application may ask for; repeat, or separate with spaces")
    register.add_argument("--public", action="store_true", help="desktop, CLI or browser app: no secret, PKCE only")
    register.add_argument("--logo-url")
    register.add_argument("--site-url")
    for verb in ("suspend", "resume"):
        oauth.add_parser(verb, help=f"{verb} an application's access").add_argument("client_id")
    oauth.add_parser("list", help="list registered applications")

    mail = commands.add_parser("mail", help="the mail outbox").add_subparsers(dest="mail_command", required=True)
    outbox = mail.add_parser("outbox", help="show the newest mails (what would have been sent)")
    outbox.add_argument("--to", help="only mails to this address")
    outbox.add_argument("--limit", type=int, default=5)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    overrides = {"data_dir": args.data_dir}
    if args.command == "serve":
        overrides.update(host=args.host, port=args.port, threads=args.threads, sandbox=args.sandbox)
    settings = load_settings(**overrides)
    if args.command == "settings":
        print(settings_markdown())
        return 0
    try:
        return _COMMANDS[args.command](settings, args)
    except StartupError as exc:
        print(f"appliance cannot start: {exc}", file=sys.stderr)
        return 2
    except AppError as exc:
        print(f"appliance: {exc.detail}", file=sys.stderr)
        return 1


def _serve(settings, args) -> int:
    import gc

    # The start's imports grow the heap by ~280,000 objects, and the collector walked all of them in
    # five full passes meanwhile (0.4-0.6 s of a start); serve() puts the threshold back once it has
    # frozen what the start loaded.
    gc.set_threshold(700, 10, 1000)
    from appliance.server import serve

    if serve(settings):  # a restore from /setup: start again, and the start swaps it in
        _start_again()
    return 0


def _start_again() -> None:
    """Replace this process with a new run of the same command (the same pid under systemd)."""
    import os

    from appliance.core import lifecycle

    command = lifecycle.program_command() + sys.argv[1:]
    os.execv(command[0], command)


def _backup_worker(settings, args) -> int:
    from appliance.backups import worker

    return worker.main()


def _netsim(settings, args) -> int:
    from waitress import serve as waitress_serve

    from appliance.netsim.app import create_netsim_app

    print(f"chat network simulator on http://{args.host}:{args.port} (Graph API at /<version>/..., "
          "control API at /_control/...)", file=sys.stderr)
    waitress_serve(create_netsim_app(), host=args.host, port=args.port, threads=8, ident="netsim")
    return 0


def _migrate(settings, args) -> int:
    from appliance import bootstrap, migrations

    rt = bootstrap.start(settings, migrate=True)
    print(f"database at revision {migrations.current_revision(rt.db)}")
    return 0


def _migrate_to_postgres(settings, args) -> int:
    from appliance import bootstrap
    from appliance.core import data_dir, postgres_engine
    from appliance import move_to_postgres

    if not postgres_engine.is_url(args.url):
        print("appliance: give a postgresql:// URL (postgresql://user:password@host:port/database)", file=sys.stderr)
        return 1
    if not settings.database_path.exists():
        print(f"appliance: there is no SQLite database to move in {settings.data_dir}", file=sys.stderr)
        return 1
    data_dir.check_writable(settings.data_dir)
    lock = data_dir.hold(settings.data_dir)  # no server may write while it is copied
    try:
        rt = bootstrap.start(settings.replace(database_url=""), migrate=True, queue_immediate=True)
        report = move_to_postgres.move(rt.db, args.url, progress=lambda line: print(f"  {line}", flush=True))
        rt.db.dispose()
    finally:
        lock.release()
    where = postgres_engine.describe(args.url)
    print(f"\nCopied and verified {report.rows} rows in {len(report.tables)} tables (each table's count and "
          f"SHA-256 checksum agree) into PostgreSQL at {where}.\n\n"
          "What to change:\n"
          "  1. Set APPLIANCE_DATABASE_URL to that URL where the service reads its settings (the packages: "
          "/etc/appliance/env; Windows: the service's settings file), keeping APPLIANCE_DATA_DIR as it is "
          "(media, keys and backups stay there).\n"
          "  2. Start the appliance: it serves from PostgreSQL. For several processes, see docs/postgresql.md.\n"
          f"  3. Keep {settings.database_path} until you are content: it was not changed, and is the way back.")
    return 0


def _backup(settings, args) -> int:
    from appliance import bootstrap
    from appliance.backups import service as backups

    backups.refuse_by_postgresql(settings)  # before opening anything
    rt = bootstrap.start(settings)
    with rt.db.unit_of_work(write=True) as session:
        row, key_text = backups.start(session, kind=backups.MANUAL, user_id=None)
        backup_id = row.id
    backups.maker.wait()
    with rt.db.unit_of_work(write=False) as session:
        row = backups.get(session, backup_id)
        if row.status != backups.READY:
            print(f"appliance: the backup failed: {row.reason}", file=sys.stderr)
            return 1
        print(f"backup ready: {backups.folder(settings) / row.file_name} ({row.size_bytes} bytes, sha256 {row.sha256})")
    if key_text:
        print(f"\nThe backup key (shown this once; a restore needs it, keep it apart from the archives):\n\n    {key_text}\n")
    return 0


def _restore(settings, args) -> int:
    from pathlib import Path

    from appliance import bootstrap, migrations
    from appliance.backups import restore
    from appliance.backups import service as backups
    from appliance.backups.archive import ArchiveRefused
    from appliance.core import data_dir

    backups.refuse_by_postgresql(settings)  # the archive's SQLite database would replace nothing PostgreSQL serves
    archive_path = Path(args.archive).expanduser().resolve()
    if not archive_path.is_file():
        print(f"appliance: no such file: {archive_path}", file=sys.stderr)
        return 1
    data_dir.check_writable(settings.data_dir)
    lock = data_dir.hold(settings.data_dir)  # no server on it until the restored data is migrated
    try:
        manifest = restore.restore(archive_path, args.key, settings.data_dir, secret_setting=settings.secret_key)
        rt = bootstrap.start(settings, migrate=True)  # the archive's revision, migrated forward
    except ArchiveRefused as exc:
        print(f"appliance: nothing was restored: {exc}", file=sys.stderr)
        return 1
    finally:
        lock.release()
    print(f"restored the backup of {manifest.get('createdAt')} (version {manifest.get('appVersion')}); "
          f"the database is at revision {migrations.revision_of(rt.db)}")
    return 0


def _doctor(settings, args) -> int:
    from appliance import migrations
    from appliance.core.data_dir import check_writable
    from appliance.core import postgres_engine
    from appliance.core.db import Database
    from appliance.core.sqlite_engine import check_sqlite_runtime

    print(f"appliance       {appliance.__version__}")
    print(f"python          {platform.python_version()} ({sys.executable})")
    check_writable(settings.data_dir)  # raises StartupError with the sentence
    print(f"data directory  {settings.data_dir} (writable)")
    sqlite_version, vec_version = check_sqlite_runtime()  # raises StartupError when unfit
    print(f"sqlite          {sqlite_version} (ok, needs 3.51.3+)")
    print(f"sqlite-vec      {vec_version} (ok)")
    location = settings.database_location
    if postgres_engine.is_url(location):
        version, _ = postgres_engine.check_runtime(location)  # raises StartupError when unreachable or unfit
        print(f"postgresql      {version} at {postgres_engine.describe(location)} (ok, needs 16+, pgvector, unaccent)")
    if postgres_engine.is_url(location) or settings.database_path.exists():
        database = Database(location)
        revision = migrations.current_revision(database)
        state = "up to date" if revision == migrations.head_revision() else f"needs migrate (head {migrations.head_revision()})"
        print(f"database        {database.describe()} at {revision}, {state}")
        database.dispose()
    else:
        print(f"database        {settings.database_path} (not created yet; `appliance migrate`)")
    print(f"mail            {'SMTP ' + settings.smtp_url.split('@')[-1] if settings.smtp_url else 'outbox table and log (no SMTP)'}")
    print("all checks passed")
    return 0


def _staff(settings, args) -> int:
    from appliance import bootstrap
    from appliance.auth import service as auth_service
    from appliance.organizations import service as organizations_service

    rt = bootstrap.start(settings, migrate=True)
    if args.staff_command in ("suspend", "unsuspend"):
        with rt.db.unit_of_work(write=True) as session:
            organizations_service.do_set_suspension(session, slug=args.slug, suspended=args.staff_command == "suspend",
                                                    reason=getattr(args, "reason", None))
        print(f"{args.slug}: {args.staff_command}ed")
        return 0
    if args.staff_command == "admin":
        from appliance.installation import service as installation_service
        with rt.db.unit_of_work(write=True) as session:
            installation_service.do_set_admin(session, email=args.email, admin=not args.remove)
        print(f"{args.email}: {'no longer ' if args.remove else ''}an administrator of the installation")
        return 0
    if args.staff_command == "plan":
        with rt.db.unit_of_work(write=True) as session:
            organizations_service.do_set_plan(session, slug=args.slug, plan_slug=args.plan)
        print(f"{args.slug}: plan {args.plan}")
        return 0
    with rt.db.unit_of_work(write=True) as session:
        token = auth_service.do_issue_impersonation(session, email=args.email, issued_by=args.by)
    print(f"impersonation token for {args.email}, valid {auth_service.IMPERSONATION_MINUTES} minutes, "
          "redeem with POST /auth/impersonate-redeem:", file=sys.stderr)
    print(token)
    return 0


def _mail(settings, args) -> int:
    from appliance import bootstrap
    from appliance.mail import delivery as mail_delivery, service as mail_service

    rt = bootstrap.start(settings, migrate=True)
    with rt.db.unit_of_work(write=False) as session:
        mails = mail_service.list_mails(session, to=args.to, limit=args.limit)
    for mail in reversed(mails):
        print(json.dumps({"to": mail.to_address, "subject": mail.subject, "status": mail.status,
                          "createdAt": mail.created_at.isoformat()}, ensure_ascii=False))
        print(mail_delivery.body_of(mail))
    return 0


def _oauth(settings, args) -> int:
    from appliance import bootstrap
    from appliance.oauth import service as oauth_service

    rt = bootstrap.start(settings, migrate=True)
    if args.oauth_command == "list":
        with rt.db.unit_of_work(write=False) as session:
            for client in oauth_service.list_clients(session):
                print(json.dumps({"client_id": client.client_id, "name": client.name, "public": client.public,
                                  "redirect_uris": client.redirect_uris, "scopes": client.scopes,
                                  "suspended": client.suspended_at is not None}))
        return 0
    if args.oauth_command in ("suspend", "resume"):
        with rt.db.unit_of_work(write=True) as session:
            oauth_service.do_set_client_suspended(session, client_id=args.client_id,
                                                  suspended=args.oauth_command == "suspend")
        print(f"{args.client_id}: {'suspended' if args.oauth_command == 'suspend' else 'resumed'}")
        return 0
    scopes = [scope for value in args.scopes for scope in value.split()]
    with rt.db.unit_of_work(write=True) as session:
        registered = oauth_service.do_register_client(
            session, name=args.name, redirect_uris=args.redirect_uris, scopes=scopes, public=args.public,
            logo_url=args.logo_url, site_url=args.site_url)
    result = {"client_id": registered.client.client_id}
    if registered.secret:
        print("the client secret is shown once; only a hash is kept", file=sys.stderr)
        result["client_secret"] = registered.secret
    print(json.dumps(result))
    return 0



def _service(settings, args) -> int:
    from pathlib import Path

    from appliance import windows_service

    if args.service_command == "settings-file":
        windows_service.write_settings_file(Path(args.path))
        return 0
    return windows_service.run()


_COMMANDS = {"serve": _serve, "migrate": _migrate, "doctor": _doctor, "migrate-to-postgres": _migrate_to_postgres,
             "staff": _staff, "oauth": _oauth, "mail": _mail, "netsim": _netsim, "backup": _backup, "restore": _restore, "backup-worker": _backup_worker, "service": _service}
