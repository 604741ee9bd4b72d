"""/organizations: the tenants of the caller, and one organization's settings."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor, current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.organizations import billing_groups, schemas, service

blp = Blueprint("organizations", __name__, url_prefix="/organizations", description="Organizations")


@blp.route("")
class Organizations(MethodView):
    @blp.response(200, schemas.OrganizationSchema(many=True))
    def get(self):
        """List the organizations I belong to"""
        return service.list_my_organizations(db_session(), actor=current_actor())

    @blp.arguments(schemas.OrganizationCreateSchema)
    @blp.response(201, schemas.OrganizationSchema)
    def post(self, body):
        """Create an organization; I become its owner"""
        return service.check_create_organization(db_session(), actor=current_actor(), **body)


@blp.route("/quota")
class Quota(MethodView):
    @blp.response(200, schemas.QuotaSchema)
    def get(self):
        """How many more organizations I may create"""
        return service.get_quota(db_session(), actor=current_actor())


@blp.route("/slug-suggest")
class SlugSuggest(MethodView):
    @blp.arguments(schemas.NameQuerySchema, location="query")
    @blp.response(200, schemas.SlugSuggestionSchema)
    def get(self, query):
        """Suggest a free slug for a name"""
        return {"slug": service.suggest_slug(db_session(), **query)}


@blp.route("/slug-available")
class SlugAvailable(MethodView):
    @blp.arguments(schemas.SlugQuerySchema, location="query")
    @blp.response(200, schemas.SlugAvailabilitySchema)
    def get(self, query):
        """Whether a slug is valid and free"""
        return {"slug": query["slug"], "available": service.check_slug_available(db_session(), **query)}


@blp.route("/<uuid:org_id>")
class OrganizationById(MethodView):
    @blp.requires("organizations:read")
    @blp.response(200, schemas.OrganizationSchema)
    def get(self, org_id):
        """Read an organization"""
        return service.access_organization_record(db_session(), actor=current_org_actor())

    @blp.requires("organizations:write")
    @blp.arguments(schemas.OrganizationUpdateSchema)
    @blp.response(200, schemas.OrganizationSchema)
    def patch(self, body, org_id):
        """Update name, billing email, country, currency, time zone, business hours or opt-out settings"""
        return service.check_update_organization(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing-group")
class BillingGroup(MethodView):
    @blp.requires("billing:read")
    @blp.response(200, schemas.BillingGroupSchema)
    def get(self, org_id):
        """The billing group: parent, children and their AI caps"""
        return billing_groups.get_group(db_session(), actor=current_org_actor())


@blp.route("/<uuid:org_id>/billing-group/link")
class BillingGroupLink(MethodView):
    @blp.requires("billing:write")
    @blp.arguments(schemas.BillingLinkSchema)
    @blp.response(201, schemas.BillingGroupSchema)
    def post(self, body, org_id):
        """Make this organization a child of a parent you also own (owner only)"""
        return billing_groups.check_link(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing-group/unlink")
class BillingGroupUnlink(MethodView):
    @blp.requires("billing:write")
    @blp.response(201, schemas.BillingGroupSchema)
    def post(self, org_id):
        """Leave the billing group; the organization moves to the free plan (owner only)"""
        return billing_groups.check_unlink(db_session(), actor=current_org_actor())


@blp.route("/<uuid:org_id>/billing-group/<uuid:target_org_id>/ai-limits")
class BillingGroupAiLimits(MethodView):
    @blp.requires("billing:write")
    @blp.arguments(schemas.AiLimitsSchema)
    @blp.response(200, schemas.ChildOrganizationSchema)
    def patch(self, body, org_id, target_org_id):
        """Cap a child's AI spend per day and month (null: no cap; parent owner only)"""
        return billing_groups.check_set_ai_limits(db_session(), actor=current_org_actor(),
                                                  target_org_id=str(target_org_id), **body)
