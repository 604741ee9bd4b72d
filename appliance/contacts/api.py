"""/organizations/{orgId}/contacts"""

from flask.views import MethodView

from appliance.contacts import opt_ins, schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("contacts", __name__, url_prefix="/organizations/<uuid:org_id>/contacts",
                description="The organization's customers")


@blp.route("")
class Contacts(MethodView):
    @blp.requires("contacts:read")
    @blp.arguments(schemas.ContactArgsSchema, location="query")
    @blp.response(200, schemas.ContactPageSchema)
    def get(self, args, org_id):
        """List contacts, newest first (cursor-paginated; filters combine)"""
        return service.list_contacts(db_session(), actor=current_org_actor(), **args)

    @blp.requires("contacts:write")
    @blp.arguments(schemas.ContactCreateSchema)
    @blp.response(201, schemas.ContactSchema)
    def post(self, body, org_id):
        """Create a contact by WhatsApp number"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:contact_id>")
class ContactById(MethodView):
    @blp.requires("contacts:read")
    @blp.response(200, schemas.ContactSchema)
    def get(self, org_id, contact_id):
        """Read a contact"""
        return service.access_contact(db_session(), actor=current_org_actor(), contact_id=str(contact_id))

    @blp.requires("contacts:write")
    @blp.arguments(schemas.ContactUpdateSchema)
    @blp.response(200, schemas.ContactSchema)
    def patch(self, body, org_id, contact_id):
        """Change the name, botExcluded or attributes"""
        return service.do_update(db_session(), actor=current_org_actor(), contact_id=str(contact_id), **body)

    @blp.requires("contacts:write")
    @blp.response(204)
    def delete(self, org_id, contact_id):
        """Erase the contact, with its conversations and messages"""
        service.do_delete(db_session(), actor=current_org_actor(), contact_id=str(contact_id))


@blp.route("/<uuid:contact_id>/opt-ins")
class ContactOptIns(MethodView):
    @blp.requires("contacts:read")
    @blp.response(200, schemas.OptInSchema(many=True))
    def get(self, org_id, contact_id):
        """The contact's opt-ins and opt-outs, newest first (the newest decides)"""
        return opt_ins.list_records(db_session(), actor=current_org_actor(), contact_id=str(contact_id))

    @blp.requires("contacts:write")
    @blp.arguments(schemas.OptInCreateSchema)
    @blp.response(201, schemas.OptInSchema)
    def post(self, body, org_id, contact_id):
        """Record an opt-in (IN) or opt-out (OUT); an OUT stops broadcasts and the bot for this contact"""
        return opt_ins.do_record(db_session(), actor=current_org_actor(), contact_id=str(contact_id), **body)
