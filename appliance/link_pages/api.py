"""/organizations/{orgId}/link-pages: the organization's public link pages."""

from types import SimpleNamespace

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.link_pages import schemas, service

blp = Blueprint("link_pages", __name__, url_prefix="/organizations/<uuid:org_id>/link-pages",
                description="Link pages: a public page of links and chat links, with views and clicks")


def _shown(pages):
    """Pages with their items and public address, as the schema shows them."""
    items = service.items_of(db_session(), [page.id for page in pages])
    return [SimpleNamespace(**page.model_dump(), items=items[page.id], url=service.public_url(page))
            for page in pages]


@blp.route("")
class Pages(MethodView):
    @blp.requires("links:read")
    @blp.response(200, schemas.LinkPageViewSchema(many=True))
    def get(self, org_id):
        """The organization's link pages"""
        return _shown(service.list_pages(db_session(), actor=current_org_actor()))

    @blp.requires("links:write")
    @blp.arguments(schemas.LinkPageCreateSchema)
    @blp.response(201, schemas.LinkPageViewSchema)
    def post(self, body, org_id):
        """Make a link page (handle unique across the appliance: 409 when taken)"""
        return _shown([service.do_create(db_session(), actor=current_org_actor(), **body)])[0]


@blp.route("/<uuid:page_id>")
class PageById(MethodView):
    @blp.requires("links:read")
    @blp.response(200, schemas.LinkPageViewSchema)
    def get(self, org_id, page_id):
        """One link page with its items and their clicks"""
        return _shown([service.access_page(db_session(), actor=current_org_actor(), page_id=str(page_id))])[0]

    @blp.requires("links:write")
    @blp.arguments(schemas.LinkPageUpdateSchema)
    @blp.response(200, schemas.LinkPageViewSchema)
    def patch(self, body, org_id, page_id):
        """Change it; `items` replaces the list (an item sent with its id keeps its clicks)"""
        return _shown([service.do_update(db_session(), actor=current_org_actor(), page_id=str(page_id), **body)])[0]

    @blp.requires("links:write")
    @blp.response(204)
    def delete(self, org_id, page_id):
        """Delete it"""
        service.do_delete(db_session(), actor=current_org_actor(), page_id=str(page_id))
