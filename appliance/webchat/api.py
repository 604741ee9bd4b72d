"""/organizations/{orgId}/webchat/widgets: the website's chat boxes (docs/webchat.md)."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.installation import public_address
from appliance.webchat import schemas, service

blp = Blueprint("webchat", __name__, url_prefix="/organizations/<uuid:org_id>/webchat/widgets",
                description="Chat boxes on the business's websites; their visitors write into the inbox")


def _shown(widget, secret: str | None = None) -> dict:
    facts = {column: getattr(widget, column) for column in widget.__table__.columns.keys()}
    facts["snippet"] = service.snippet(widget, public_address.base_url())
    if secret:
        facts["identity_secret"] = secret
    return facts


@blp.route("")
class Widgets(MethodView):
    @blp.requires("waba:read")
    @blp.response(200, schemas.WidgetSchema(many=True))
    def get(self, org_id):
        """The organization's widgets, by name"""
        return [_shown(widget) for widget in service.list_widgets(db_session(), actor=current_org_actor())]

    @blp.requires("waba:write")
    @blp.arguments(schemas.WidgetCreateSchema)
    @blp.response(201, schemas.WidgetWithSecretSchema)
    def post(self, body, org_id):
        """Create a widget; its identity secret is in this answer only (409 no_phone_number: no number to join)"""
        widget, secret = service.do_create(db_session(), actor=current_org_actor(), **body)
        return _shown(widget, secret)


@blp.route("/<uuid:widget_id>")
class WidgetById(MethodView):
    @blp.requires("waba:read")
    @blp.response(200, schemas.WidgetSchema)
    def get(self, org_id, widget_id):
        """One widget, with its snippet"""
        return _shown(service.access_widget(db_session(), actor=current_org_actor(), widget_id=str(widget_id)))

    @blp.requires("waba:write")
    @blp.arguments(schemas.WidgetUpdateSchema)
    @blp.response(200, schemas.WidgetSchema)
    def patch(self, body, org_id, widget_id):
        """Change a widget"""
        return _shown(service.do_update(db_session(), actor=current_org_actor(), widget_id=str(widget_id), **body))

    @blp.requires("waba:write")
    @blp.response(204)
    def delete(self, org_id, widget_id):
        """Delete a widget (its visitors' conversations stay in the inbox)"""
        service.do_delete(db_session(), actor=current_org_actor(), widget_id=str(widget_id))


@blp.route("/<uuid:widget_id>/identity-secret")
class WidgetSecret(MethodView):
    @blp.requires("waba:write")
    @blp.response(200, schemas.WidgetWithSecretSchema)
    def post(self, org_id, widget_id):
        """A new identity secret, shown this once; the old one stops working at once"""
        widget, secret = service.do_rotate_secret(db_session(), actor=current_org_actor(), widget_id=str(widget_id))
        return _shown(widget, secret)
