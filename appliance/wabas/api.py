"""/organizations/{orgId}/wabas, and /organizations/{orgId}/waba/{id}/webhooks/resubscribe (singular,
as the reference's change history names it)."""

from flask.views import MethodView

from appliance.core import runtime
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.wabas import schemas, service, webhook_setup

blp = Blueprint("wabas", __name__, url_prefix="/organizations/<uuid:org_id>/wabas",
                description="WhatsApp Business Accounts connected to the organization")


@blp.route("")
class BusinessAccounts(MethodView):
    @blp.requires("waba:read")
    @blp.response(200, schemas.BusinessAccountSchema(many=True))
    def get(self, org_id):
        """List connected business accounts (within the member's WABA scope)"""
        return service.list_wabas(db_session(), actor=current_org_actor())

    @blp.requires("waba:write")
    @blp.arguments(schemas.BusinessAccountConnectSchema)
    @blp.response(201, schemas.BusinessAccountSchema)
    def post(self, body, org_id):
        """Connect a business account: its phone numbers are imported from the network"""
        return service.check_connect(db_session(), actor=current_org_actor(), **body)


@blp.route("/webhook-setup")
class WebhookSetup(MethodView):
    @blp.requires("waba:write")
    @blp.response(200, schemas.WebhookSetupSchema)
    def get(self, org_id):
        """What to paste into Meta's app dashboard (callback URL, verify token) and what Meta last did"""
        return webhook_setup.read_or_make(runtime.get().db, actor=current_org_actor())


@blp.route("/webhook-setup/rotate")
class WebhookSetupRotate(MethodView):
    @blp.requires("waba:write")
    @blp.response(200, schemas.WebhookSetupSchema)
    def post(self, org_id):
        """A new verify token (the old one stops verifying; deliveries go on: they are signed with the app secret)"""
        return webhook_setup.do_rotate(db_session(), actor=current_org_actor())


@blp.route("/<uuid:waba_pk>")
class BusinessAccountById(MethodView):
    @blp.requires("waba:read")
    @blp.response(200, schemas.BusinessAccountSchema)
    def get(self, org_id, waba_pk):
        """Read a connected business account (never its secrets)"""
        return service.access_waba(db_session(), actor=current_org_actor(), waba_pk=str(waba_pk))

    @blp.requires("waba:write")
    @blp.response(204)
    def delete(self, org_id, waba_pk):
        """Disconnect: its numbers stop sending and receiving; conversations stay"""
        service.do_disconnect(db_session(), actor=current_org_actor(), waba_pk=str(waba_pk))


waba_blp = Blueprint("waba", __name__, url_prefix="/organizations/<uuid:org_id>/waba",
                     description="Operations on one connected business account")


@waba_blp.route("/<uuid:waba_pk>/webhooks/resubscribe")
class Resubscribe(MethodView):
    @waba_blp.requires("waba:write")
    @waba_blp.response(200, schemas.BusinessAccountSchema)
    def post(self, org_id, waba_pk):
        """Subscribe the app to the account's webhooks again (after Meta dropped the subscription)"""
        return service.check_resubscribe(db_session(), actor=current_org_actor(), waba_pk=str(waba_pk))
