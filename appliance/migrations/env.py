from alembic import context
from sqlmodel import SQLModel

from appliance import model_registry  # noqa: F401  (registers every table)
from appliance.migrations import include_object

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  render_as_batch=True, compare_type=True, include_object=include_object)
with context.begin_transaction():
    context.run_migrations()
