from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime


class BackupSchema(ApiSchema):
    id = fields.String()
    kind = fields.String(metadata={"enum": ["MANUAL", "SCHEDULED", "PRE_UPGRADE"], "description": (
        "MANUAL: asked for; SCHEDULED: the daily one (APPLIANCE_BACKUP_AT); PRE_UPGRADE: taken by a start "
        "with migrations to run")})
    status = fields.String(metadata={"enum": ["RUNNING", "READY", "FAILED"]})
    reason = fields.String(allow_none=True, metadata={"description": "Why it failed, in a sentence"})
    progress = fields.Integer(metadata={"description": "Percent of the bytes to archive written so far"})
    file_name = fields.String()
    created_at = IsoDateTime()
    finished_at = IsoDateTime(allow_none=True)
    size_bytes = fields.Integer(allow_none=True)
    app_version = fields.String(metadata={"description": "The program's version that made it"})
    schema_revision = fields.String(allow_none=True, metadata={"description": "The database's revision in it"})
    sha256 = fields.String(allow_none=True, metadata={"description": "Of the archive file"})
    key_id = fields.String(allow_none=True, metadata={"description": "Names the backup key its secret key is sealed under"})


class BackupStartedSchema(BackupSchema):
    backup_key = fields.String(allow_none=True, metadata={"description": (
        "The backup key, in the answer of the first backup only (never again): keep it apart from the "
        "archives; a restore needs it")})


class BackupKeySchema(ApiSchema):
    backup_key = fields.String(metadata={"description": "The new backup key, shown this once"})
    key_id = fields.String()
