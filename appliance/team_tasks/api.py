"""/organizations/{orgId}/tasks: the team's to-do list."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.team_tasks import schemas, service

blp = Blueprint("tasks", __name__, url_prefix="/organizations/<uuid:org_id>/tasks", description="The team's tasks")


@blp.route("")
class Tasks(MethodView):
    @blp.requires("conversations:read")
    @blp.arguments(schemas.TaskArgsSchema, location="query")
    @blp.response(200, schemas.TaskPageSchema)
    def get(self, args, org_id):
        """Tasks, newest first, by status, assignee ("me" too) and origin"""
        return service.list_tasks(db_session(), actor=current_org_actor(), **args)

    @blp.requires("conversations:write")
    @blp.arguments(schemas.TaskCreateSchema)
    @blp.response(201, schemas.TaskSchema)
    def post(self, body, org_id):
        """Create a task (origin USER for a person, API for a key or an application)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:task_id>")
class TaskById(MethodView):
    @blp.requires("conversations:read")
    @blp.response(200, schemas.TaskSchema)
    def get(self, org_id, task_id):
        """One task"""
        return service.access_task(db_session(), actor=current_org_actor(), task_id=str(task_id))

    @blp.requires("conversations:write")
    @blp.arguments(schemas.TaskUpdateSchema)
    @blp.response(200, schemas.TaskSchema)
    def patch(self, body, org_id, task_id):
        """Change a task; status DONE records when"""
        return service.do_update(db_session(), actor=current_org_actor(), task_id=str(task_id), **body)

    @blp.requires("conversations:write")
    @blp.response(204)
    def delete(self, org_id, task_id):
        """Delete a task"""
        service.do_delete(db_session(), actor=current_org_actor(), task_id=str(task_id))
