"""Backups (the installation's administrators): make one now and follow its progress, the list
with downloads, the daily schedule and the folder, the backup key (shown once, replaceable), and how
to restore. The page reads itself again every 5 seconds while a backup runs."""

from __future__ import annotations

import shutil

from flask import request, send_file

from appliance.backups import service as backups
from appliance.console.common import back, console_pages, render
from appliance.console.texts_backups import BACKUP_TEXTS
from appliance.core import runtime
from appliance.core.errors import AppError
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation

_PAGE, _ACTIVE = "console/backups.html", "console_pages.backups_page"
KEEPS_BACKUPS = "keeps the installation's backups"


def _admin_id() -> str:
    return installation.check_admin(db_session(), browser_actor().user_id, what=KEEPS_BACKUPS).id


def _page(error: AppError | None = None, *, new_key: str | None = None, status: int = 200):
    _admin_id()
    session = db_session()
    settings = runtime.get().settings
    listed = backups.listing(session)
    return render(_PAGE, None, _ACTIVE, error=error, status=status, texts=BACKUP_TEXTS, backups=listed,
                  running=any(b.status == backups.RUNNING for b in listed), new_key=new_key,
                  key_id=backups.current_key_id(session), folder=str(settings.backups_dir),
                  backup_at=settings.backup_at, zone_name=str(backups.installation_zone(settings)),
                  free_bytes=shutil.disk_usage(backups.folder(settings)).free, done=request.args.get("done"),
                  by_postgresql=backups.by_postgresql(settings))


@console_pages.get("/console/backups")
@signed_in_page
def backups_page():
    return _page()


@console_pages.post("/console/backups")
@signed_in_page
def backup_now():
    try:
        _row, key_text = backups.start(db_session(), kind=backups.MANUAL, user_id=_admin_id())
    except AppError as error:
        return _page(error, status=error.status)
    if key_text:  # shown in this answer, never again: not a redirect that would lose it
        return _page(new_key=key_text)
    return back(_ACTIVE, "backup_started")


@console_pages.post("/console/backups/key")
@signed_in_page
def backup_key_replace():
    replaced = backups.replace_key(db_session(), user_id=_admin_id())
    return _page(new_key=replaced["backup_key"])


@console_pages.get("/console/backups/<backup_id>/download")
@signed_in_page
def backup_download(backup_id: str):
    _admin_id()
    path = backups.archive_path(db_session(), backup_id)
    return send_file(path, mimetype="application/gzip", as_attachment=True, download_name=path.name, max_age=0)


@console_pages.post("/console/backups/<backup_id>/delete")
@signed_in_page
def backup_delete(backup_id: str):
    _admin_id()
    try:
        backups.delete(db_session(), backup_id)
    except AppError as error:
        return _page(error, status=error.status)
    return back(_ACTIVE, "backup_deleted")
