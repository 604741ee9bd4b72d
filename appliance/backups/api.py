"""/installation/backups and /installation/backup-key (the installation's administrators)."""

from types import SimpleNamespace

from flask import send_file
from flask.views import MethodView

from appliance.backups import schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_actor
from appliance.http.files import file_answer
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation

blp = Blueprint("installation_backups", __name__, url_prefix="/installation",
                description="Backups of the whole installation (administrators only)")
ARCHIVE_TYPE = "application/gzip"


def _admin_id() -> str:
    return installation.check_admin_actor(db_session(), current_actor())


@blp.route("/backups")
class Backups(MethodView):
    @blp.response(200, schemas.BackupSchema(many=True))
    def get(self):
        """The backups, newest first, with the attempts that failed and why"""
        _admin_id()
        return service.listing(db_session())

    @blp.response(202, schemas.BackupStartedSchema)
    def post(self):
        """Start a backup (409 backup_running while one runs; 507 insufficient_storage when the disk lacks room; 409 backups_by_postgresql on PostgreSQL, whose backups are pg_dump's or the provider's)"""
        row, key_text = service.start(db_session(), kind=service.MANUAL, user_id=_admin_id())
        return SimpleNamespace(**row.model_dump(), backup_key=key_text)


@blp.route("/backups/<backup_id>")
class OneBackup(MethodView):
    @blp.response(200, schemas.BackupSchema)
    def get(self, backup_id):
        """One backup (its progress while RUNNING)"""
        _admin_id()
        return service.get(db_session(), backup_id)

    @blp.response(204)
    def delete(self, backup_id):
        """Delete a backup and its archive (409 while it is being made)"""
        _admin_id()
        service.delete(db_session(), backup_id)


@blp.route("/backups/<backup_id>/download")
class BackupDownload(MethodView):
    @blp.doc(responses=file_answer("The archive (tar.gz)", {ARCHIVE_TYPE}))
    def get(self, backup_id):
        """Download a READY backup's archive (409 backup_not_ready otherwise)"""
        _admin_id()
        path = service.archive_path(db_session(), backup_id)
        response = send_file(path, mimetype=ARCHIVE_TYPE, as_attachment=True, download_name=path.name,
                             conditional=True, max_age=0)
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


@blp.route("/backup-key")
class BackupKey(MethodView):
    @blp.response(200, schemas.BackupKeySchema)
    def post(self):
        """Replace the backup key for the archives from now on; the answer carries it this once (older archives keep needing theirs)"""
        return service.replace_key(db_session(), user_id=_admin_id())
