from huey import crontab

from appliance.core import runtime
from appliance.core.queue import huey, slow
from appliance.knowledge import processing


@slow.task()
def process_document(organization_id: str, document_id: str, token: str, force: bool) -> None:
    """On the slow lane (core/queue.py): reading a document may take minutes; `organization_id`
    is its place in the lane's turns."""
    processing.run(runtime.get().db, document_id, token, force)


@huey.periodic_task(crontab(minute="*"))
def knowledge_upkeep() -> None:
    """Pages due for a re-read, and documents whose processing a crash cut short."""
    database = runtime.get().db
    processing.resume_interrupted(database, older_than=processing.STALE_AFTER)
    processing.sync_due_pages(database)
