from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime


class _DatabaseSchema(ApiSchema):
    engine = fields.String(metadata={"enum": ["sqlite", "postgresql"]})
    size_bytes = fields.Integer()
    sqlite_version = fields.String(metadata={"description": "On SQLite: its version"})
    postgresql_version = fields.String(metadata={"description": "On PostgreSQL: the server's version"})


class _DiskSchema(ApiSchema):
    free_bytes = fields.Integer(metadata={"description": "Free space where the data directory is"})
    total_bytes = fields.Integer(metadata={"description": "The size of that disk"})


class _QueueSchema(ApiSchema):
    waiting = fields.Integer(metadata={"description": "Background tasks waiting, both lanes"})
    failed = fields.Integer(metadata={"description": "Background tasks that failed since the start"})


class _BackupsSchema(ApiSchema):
    last_ready_at = IsoDateTime(allow_none=True)
    last_failed_at = IsoDateTime(allow_none=True)
    by_postgresql = fields.Boolean(metadata={"description": "The database is on PostgreSQL: its backups are pg_dump's "
                                             "or the provider's snapshots, and the appliance makes none "
                                             "(docs/postgresql.md)"})


class _AddressSchema(ApiSchema):
    base_url = fields.String()
    source = fields.String()
    problems = fields.List(fields.String())


class _TlsSchema(ApiSchema):
    mode = fields.String(metadata={"enum": ["off", "acme", "files"]})
    https_port = fields.Integer(allow_none=True)
    domains = fields.List(fields.String())
    not_after = fields.String(allow_none=True, metadata={"format": "date-time"})
    installed_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    renew_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    last_error = fields.String(allow_none=True, metadata={"description": "Why the last certificate asked or read is not served (the previous one is)"})
    last_error_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    next_try_at = fields.String(allow_none=True, metadata={"format": "date-time", "description": "After a refusal, when the certificate is asked for again"})


class _TunnelSchema(ApiSchema):
    provider = fields.String(allow_none=True)
    state = fields.String(metadata={"enum": ["off", "starting", "running", "restarting", "missing", "stopped"]})
    last_error = fields.String(allow_none=True)
    restarts = fields.Integer()
    started_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    connected_at = fields.String(allow_none=True, metadata={"format": "date-time"})


class _WhatsAppSchema(ApiSchema):
    last_delivery_at = IsoDateTime(allow_none=True)
    verified_at = IsoDateTime(allow_none=True)
    last_rejected_at = IsoDateTime(allow_none=True)
    refused_verifications = fields.Integer()


class InstallationStatusSchema(ApiSchema):
    version = fields.String()
    started_at = IsoDateTime()
    database = fields.Nested(_DatabaseSchema)
    disk = fields.Nested(_DiskSchema)
    queue = fields.Nested(_QueueSchema)
    backups = fields.Nested(_BackupsSchema)
    public_address = fields.Nested(_AddressSchema)
    tls = fields.Nested(_TlsSchema)
    tunnel = fields.Nested(_TunnelSchema)
    whatsapp = fields.Nested(_WhatsAppSchema)
