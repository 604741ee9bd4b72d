"""/organizations/{orgId}/contact-lists (members are listed by GET .../contacts?listId=)"""

from flask.views import MethodView

from appliance.contact_lists import csv_import, schemas, service
from appliance.http.api import Blueprint, takes_upload, uploaded_file
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("contact_lists", __name__, url_prefix="/organizations/<uuid:org_id>/contact-lists",
                description="Named sets of contacts; members are listed by GET .../contacts?listId=")



@blp.route("")
class ContactLists(MethodView):
    @blp.requires("contacts:read")
    @blp.response(200, schemas.ContactListSchema(many=True))
    def get(self, org_id):
        """List contact lists with their sizes, by name"""
        return service.list_lists(db_session(), actor=current_org_actor())

    @blp.requires("contacts:write")
    @blp.arguments(schemas.ContactListCreateSchema)
    @blp.response(201, schemas.ContactListSchema)
    def post(self, body, org_id):
        """Create a contact list"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:list_id>")
class ContactListById(MethodView):
    @blp.requires("contacts:read")
    @blp.response(200, schemas.ContactListSchema)
    def get(self, org_id, list_id):
        """Read a contact list"""
        return service.view_list(db_session(), actor=current_org_actor(), list_id=str(list_id))

    @blp.requires("contacts:write")
    @blp.arguments(schemas.ContactListUpdateSchema)
    @blp.response(200, schemas.ContactListSchema)
    def patch(self, body, org_id, list_id):
        """Rename or describe a contact list"""
        return service.do_update(db_session(), actor=current_org_actor(), list_id=str(list_id), **body)

    @blp.requires("contacts:write")
    @blp.response(204)
    def delete(self, org_id, list_id):
        """Delete the list (its contacts stay)"""
        service.do_delete(db_session(), actor=current_org_actor(), list_id=str(list_id))


@blp.route("/<uuid:list_id>/members")
class ContactListMembers(MethodView):
    @blp.requires("contacts:write")
    @blp.arguments(schemas.MemberIdsSchema)
    @blp.response(200, schemas.MembersAddedSchema)
    def post(self, body, org_id, list_id):
        """Add contacts to the list (all or none: an unknown id refuses the batch)"""
        return service.do_add_members(db_session(), actor=current_org_actor(), list_id=str(list_id), **body)

    @blp.requires("contacts:write")
    @blp.arguments(schemas.MemberIdsSchema)
    @blp.response(200, schemas.MembersRemovedSchema)
    def delete(self, body, org_id, list_id):
        """Remove contacts from the list (bulk)"""
        return service.do_remove_members(db_session(), actor=current_org_actor(), list_id=str(list_id), **body)


@blp.route("/<uuid:list_id>/remove-by-filter")
class ContactListRemoveByFilter(MethodView):
    @blp.requires("contacts:write")
    @blp.arguments(schemas.RemoveByFilterSchema)
    @blp.response(200, schemas.MembersRemovedSchema)
    def post(self, body, org_id, list_id):
        """Remove the members matching every given filter (at least one)"""
        return service.do_remove_by_filter(db_session(), actor=current_org_actor(), list_id=str(list_id), **body)


@blp.route("/<uuid:list_id>/import")
class ContactListImport(MethodView):
    @blp.requires("contacts:write")
    @blp.arguments(schemas.ImportArgsSchema, location="query")
    @blp.response(200, schemas.ImportSummarySchema)
    @takes_upload(max_bytes=csv_import.MAX_BYTES, content_types=("text/csv", "text/plain"),
                  description=f"CSV, UTF-8 or Windows-1252, comma or semicolon, at most 5 MB and "
                              f"{csv_import.MAX_ROWS:,} rows; a phone column (phone, telefono, waId...)")
    def post(self, args, org_id, list_id):
        """Import a CSV of contacts into the list: new numbers become contacts, bad rows are reported"""
        content = uploaded_file().read()  # ≤ 5 MB: the rows are parsed whole
        return service.do_import_csv(db_session(), actor=current_org_actor(), list_id=str(list_id), content=content,
                                     **args)
