"""/organizations/{orgId}/bot/config: each number's bot (`phoneId` is our phone number id); /bot/rules."""

from flask.views import MethodView

from appliance.bots import activity, agent_stats, flows, image_schemas, images, rules, schemas, service
from appliance.http.api import Blueprint, takes_upload, uploaded_file, uploaded_form
from appliance.http.files import file_answer, serve_stored_file
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("bot_config", __name__, url_prefix="/organizations/<uuid:org_id>/bot/config",
                description="The bot of each phone number")


@blp.route("")
class BotConfigs(MethodView):
    @blp.requires("bot:read")
    @blp.response(200, schemas.BotConfigSchema(many=True))
    def get(self, org_id):
        """Every active number's bot configuration (defaults where none was saved)"""
        return service.list_configs(db_session(), actor=current_org_actor())


@blp.route("/<uuid:phone_id>")
class BotConfigByNumber(MethodView):
    @blp.requires("bot:read")
    @blp.response(200, schemas.BotConfigSchema)
    def get(self, org_id, phone_id):
        """One number's bot configuration"""
        return service.get_config(db_session(), actor=current_org_actor(), phone_number_pk=str(phone_id))

    @blp.requires("bot:write")
    @blp.arguments(schemas.BotConfigUpdateSchema)
    @blp.response(200, schemas.BotConfigSchema)
    def put(self, body, org_id, phone_id):
        """Create or update a number's bot (fields left out keep their value); 400 plan_capability_missing
        when a setting needs what the plan does not include"""
        return service.check_put(db_session(), actor=current_org_actor(), phone_number_pk=str(phone_id), **body)


@blp.route("/<uuid:phone_id>/toggle")
class BotToggle(MethodView):
    @blp.requires("bot:write")
    @blp.arguments(schemas.BotToggleSchema, required=False)
    @blp.response(200, schemas.BotConfigSchema)
    def patch(self, body, org_id, phone_id):
        """Turn the bot on or off (no body: flip it); creates the defaults when none were saved"""
        return service.check_toggle(db_session(), actor=current_org_actor(), phone_number_pk=str(phone_id),
                                    **(body or {}))


rules_blp = Blueprint("bot_rules", __name__, url_prefix="/organizations/<uuid:org_id>/bot/rules",
                      description="Keyword rules of the bots", shown_with="bot_config")


@rules_blp.route("")
class BotRules(MethodView):
    @rules_blp.requires("bot:read")
    @rules_blp.response(200, schemas.BotRuleSchema(many=True))
    def get(self, org_id):
        """The rules, in the order they are tried (priority, then age)"""
        return rules.list_rules(db_session(), actor=current_org_actor())

    @rules_blp.requires("bot:write")
    @rules_blp.arguments(schemas.BotRuleCreateSchema)
    @rules_blp.response(201, schemas.BotRuleSchema)
    def post(self, body, org_id):
        """Create a rule"""
        return rules.do_create(db_session(), actor=current_org_actor(), **body)


@rules_blp.route("/<uuid:rule_id>")
class BotRuleById(MethodView):
    @rules_blp.requires("bot:read")
    @rules_blp.response(200, schemas.BotRuleSchema)
    def get(self, org_id, rule_id):
        """One rule"""
        return rules.access_rule(db_session(), actor=current_org_actor(), rule_id=str(rule_id))

    @rules_blp.requires("bot:write")
    @rules_blp.arguments(schemas.BotRuleUpdateSchema)
    @rules_blp.response(200, schemas.BotRuleSchema)
    def patch(self, body, org_id, rule_id):
        """Change a rule (fields left out stay)"""
        return rules.do_update(db_session(), actor=current_org_actor(), rule_id=str(rule_id), **body)

    @rules_blp.requires("bot:write")
    @rules_blp.response(204)
    def delete(self, org_id, rule_id):
        """Delete a rule"""
        rules.do_delete(db_session(), actor=current_org_actor(), rule_id=str(rule_id))


activity_blp = Blueprint("bot_activity", __name__, url_prefix="/organizations/<uuid:org_id>/bot",
                         description="What the bots decided, and whether they can work", shown_with="bot_config")


@activity_blp.route("/activity")
class BotActivityLog(MethodView):
    @activity_blp.requires("bot:read")
    @activity_blp.arguments(schemas.BotActivityArgsSchema, location="query")
    @activity_blp.response(200, schemas.BotActivityPageSchema)
    def get(self, args, org_id):
        """Every decision of the bots, newest first (by number, conversation and kind)"""
        return activity.list_activity(db_session(), actor=current_org_actor(), **args)


@activity_blp.route("/salud")
class BotHealth(MethodView):
    @activity_blp.requires("bot:read")
    @activity_blp.response(200, schemas.BotHealthSchema)
    def get(self, org_id):
        """Each number's bot: healthy, or the problems that keep it from doing what it is set to do"""
        return activity.health(db_session(), actor=current_org_actor())


@activity_blp.route("/agents/stats")
class AgentStats(MethodView):
    @activity_blp.requires("bot:read")
    @activity_blp.arguments(schemas.AgentStatsArgsSchema, location="query")
    @activity_blp.response(200, schemas.AgentStatsSchema(many=True))
    def get(self, args, org_id):
        """Per AI agent over the last `dias` days: conversations, replies, hand-offs, errors, tokens, cost"""
        return agent_stats.agent_stats(db_session(), actor=current_org_actor(), days=args["dias"])


flows_blp = Blueprint("bot_flows", __name__, url_prefix="/organizations/<uuid:org_id>/bot/flows",
                      description="Scripted conversations of the bots (not Meta's WhatsApp Flows)", shown_with="bot_config")


@flows_blp.route("")
class BotFlows(MethodView):
    @flows_blp.requires("bot:read")
    @flows_blp.response(200, schemas.BotFlowSchema(many=True))
    def get(self, org_id):
        """The flows, oldest first"""
        return flows.list_flows(db_session(), actor=current_org_actor())

    @flows_blp.requires("bot:write")
    @flows_blp.arguments(schemas.BotFlowCreateSchema)
    @flows_blp.response(201, schemas.BotFlowSchema)
    def post(self, body, org_id):
        """Create a flow; 400 bot_flow_invalid when a step points nowhere or steps loop without waiting"""
        return flows.do_create(db_session(), actor=current_org_actor(), **body)


@flows_blp.route("/plantillas")
class BotFlowTemplates(MethodView):
    @flows_blp.requires("bot:read")
    @flows_blp.response(200, schemas.BotFlowTemplateSchema(many=True))
    def get(self, org_id):
        """Example flows in Spanish and English, each ready to POST as it is"""
        return flows.templates()


@flows_blp.route("/<uuid:flow_id>")
class BotFlowById(MethodView):
    @flows_blp.requires("bot:read")
    @flows_blp.response(200, schemas.BotFlowSchema)
    def get(self, org_id, flow_id):
        """One flow"""
        return flows.access_flow(db_session(), actor=current_org_actor(), flow_id=str(flow_id))

    @flows_blp.requires("bot:write")
    @flows_blp.arguments(schemas.BotFlowUpdateSchema)
    @flows_blp.response(200, schemas.BotFlowSchema)
    def patch(self, body, org_id, flow_id):
        """Change a flow (fields left out stay; steps are replaced whole and checked again)"""
        return flows.do_update(db_session(), actor=current_org_actor(), flow_id=str(flow_id), **body)

    @flows_blp.requires("bot:write")
    @flows_blp.response(204)
    def delete(self, org_id, flow_id):
        """Delete a flow; 409 bot_flow_in_use while rules start it"""
        flows.do_delete(db_session(), actor=current_org_actor(), flow_id=str(flow_id))


images_blp = Blueprint("bot_images", __name__, url_prefix="/organizations/<uuid:org_id>/bot/images",
                       description="The bot's image library", shown_with="bot_config")


@images_blp.route("")
class BotImages(MethodView):
    @images_blp.requires("bot:read")
    @images_blp.response(200, image_schemas.BotImageSchema(many=True))
    def get(self, org_id):
        """The bot's images, by label"""
        return images.list_images(db_session(), actor=current_org_actor())

    @images_blp.requires("bot:write")
    @images_blp.response(201, image_schemas.BotImageSchema)
    @takes_upload(max_bytes=images.MAX_BYTES, content_types=("image/jpeg", "image/png", "image/webp"),
                  description="A JPG, PNG or WEBP image of at most 5 MB (recognized by its content)",
                  form=image_schemas.BotImageUploadSchema())
    def post(self, org_id):
        """Add an image (multipart: file, label, caption); 400 unsupported_file_type, 413 over 5 MB"""
        fields = uploaded_form()
        return images.do_upload(db_session(), actor=current_org_actor(), upload=uploaded_file(), **fields)


@images_blp.route("/<uuid:image_id>")
class BotImageById(MethodView):
    @images_blp.requires("bot:write")
    @images_blp.arguments(image_schemas.BotImageUpdateSchema)
    @images_blp.response(200, image_schemas.BotImageSchema)
    def patch(self, body, org_id, image_id):
        """Change the label or the caption"""
        return images.do_update(db_session(), actor=current_org_actor(), image_id=str(image_id), **body)

    @images_blp.requires("bot:write")
    @images_blp.arguments(image_schemas.BotImageDeleteArgsSchema, location="query")
    @images_blp.response(200, image_schemas.BotImageSchema)
    def delete(self, args, org_id, image_id):
        """Remove an image (409 image_in_use while a rule sends it, unless forzar=true); its file stays,
        since sent messages show it"""
        return images.do_delete(db_session(), actor=current_org_actor(), image_id=str(image_id), **args)


@images_blp.route("/<uuid:image_id>/file")
class BotImageFile(MethodView):
    @images_blp.requires("bot:read")
    @images_blp.doc(responses=file_answer("The image, inline with its type", images.SERVED_AS))
    def get(self, org_id, image_id):
        """The image itself (also of an image deleted since: messages sent show it)"""
        found = images.file_of(db_session(), actor=current_org_actor(), image_id=str(image_id))
        return serve_stored_file(found.path, claimed_type=found.mime_type, filename=found.filename)
