"""/bot/providers, /bot/agents (with its catalogs) and PATCH /conversations/{id}/agent."""

from flask.views import MethodView

from appliance.ai_agents import answering, catalog, configurador, providers, schemas, service
from appliance.conversations import inbox as conversations_inbox
from appliance.conversations.schemas import ConversationSchema
from appliance.core import runtime
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

providers_blp = Blueprint("bot_providers", __name__, url_prefix="/organizations/<uuid:org_id>/bot/providers",
                          description="AI providers: keys (sealed, never returned) and addresses", shown_with="bot_config")
agents_blp = Blueprint("bot_agents", __name__, url_prefix="/organizations/<uuid:org_id>/bot/agents",
                       description="AI agents: who answers, with which model, knowing what", shown_with="bot_config")
pin_blp = Blueprint("conversation_agent", __name__, url_prefix="/organizations/<uuid:org_id>/conversations",
                    description="The agent a conversation is pinned to", shown_with="conversations")


@providers_blp.route("")
class Providers(MethodView):
    @providers_blp.requires("bot:read")
    @providers_blp.response(200, schemas.ProviderSchema(many=True))
    def get(self, org_id):
        """The six providers: whether each is set up, its address and the last error met (never the key)"""
        return providers.list_providers(db_session(), actor=current_org_actor())


# The path names one of the six providers: documented as such, so the document and the server agree
# (any other name is 400 unknown_provider).
_PROVIDER_PARAMETER = [{"in": "path", "name": "provider", "required": True,
                        "schema": {"type": "string", "enum": list(catalog.PROVIDERS)}}]


@providers_blp.route("/<string:provider>", parameters=_PROVIDER_PARAMETER)
class ProviderById(MethodView):
    @providers_blp.requires("bot:write")
    @providers_blp.arguments(schemas.ProviderPutSchema)
    @providers_blp.response(200, schemas.ProviderSchema)
    def put(self, body, org_id, provider):
        """Set a provider's key and/or address (LOCAL: baseUrl required; a key not sent is kept)"""
        return providers.do_put(db_session(), actor=current_org_actor(), provider=provider,
                                clear_base_url="base_url" in body and body["base_url"] is None, **{
                                    k: v for k, v in body.items() if v is not None})

    @providers_blp.requires("bot:write")
    @providers_blp.response(204)
    def delete(self, org_id, provider):
        """Forget a provider's key and address"""
        providers.do_delete(db_session(), actor=current_org_actor(), provider=provider)


@providers_blp.route("/<string:provider>/check", parameters=_PROVIDER_PARAMETER)
class ProviderCheck(MethodView):
    @providers_blp.requires("bot:write")
    @providers_blp.response(201, schemas.ProviderCheckSchema)
    def post(self, org_id, provider):
        """Test the connection: ask the provider for its models (no transaction waits for it); a failure
        is a sentence of ours and its code, never what the server answered"""
        models, error = providers.check_connection(runtime.get().db, actor=current_org_actor(), provider=provider)
        return {"ok": error is None, "models": models, "error": str(error) if error else None,
                "error_code": error.kind if error else None}


@agents_blp.route("")
class Agents(MethodView):
    @agents_blp.requires("bot:read")
    @agents_blp.arguments(schemas.AgentListArgsSchema, location="query")
    @agents_blp.response(200, schemas.AgentSchema(many=True))
    def get(self, args, org_id):
        """The agents, by name; with phoneNumberId, those serving that number"""
        return service.list_agents(db_session(), actor=current_org_actor(), phone_number_pk=args["phone_number_id"])

    @agents_blp.requires("bot:write")
    @agents_blp.arguments(schemas.AgentCreateSchema)
    @agents_blp.response(201, schemas.AgentSchema)
    def post(self, body, org_id):
        """Create an agent (400 unknown_provider, unknown_model, unknown_capability, route_tag_conflict)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@agents_blp.route("/capabilities")
class Capabilities(MethodView):
    @agents_blp.requires("bot:read")
    @agents_blp.response(200, schemas.CapabilitySchema(many=True))
    def get(self, org_id):
        """What an agent may be allowed to do, as tools of the model"""
        return catalog.capabilities()


@agents_blp.route("/modelos")
class Models(MethodView):
    @agents_blp.requires("bot:read")
    @agents_blp.response(200, schemas.ModelSchema(many=True))
    def get(self, org_id):
        """The models of each provider with context size and prices (LOCAL: what its server lists)"""
        return providers.models_with_local(runtime.get().db, actor=current_org_actor())


@agents_blp.route("/<uuid:agent_id>")
class AgentById(MethodView):
    @agents_blp.requires("bot:read")
    @agents_blp.response(200, schemas.AgentSchema)
    def get(self, org_id, agent_id):
        """One agent"""
        return service.access_agent(db_session(), actor=current_org_actor(), agent_id=str(agent_id))

    @agents_blp.requires("bot:write")
    @agents_blp.arguments(schemas.AgentUpdateSchema)
    @agents_blp.response(200, schemas.AgentSchema)
    def patch(self, body, org_id, agent_id):
        """Change an agent"""
        return service.do_update(db_session(), actor=current_org_actor(), agent_id=str(agent_id), **body)

    @agents_blp.requires("bot:write")
    @agents_blp.response(200, schemas.AgentSchema)
    def delete(self, org_id, agent_id):
        """Delete an agent; conversations pinned to it go back to the router"""
        return service.do_delete(db_session(), actor=current_org_actor(), agent_id=str(agent_id))


@agents_blp.route("/<uuid:agent_id>/probador")
class Probe(MethodView):
    @agents_blp.requires("bot:write")
    @agents_blp.arguments(schemas.ProbeSchema)
    @agents_blp.response(201, schemas.ProbeAnswerSchema)
    def post(self, body, org_id, agent_id):
        """Chat with the agent: its reply, the parts a paced bot would send, the passages it read and the
        tokens; sends nothing to any customer (502 ai_provider_failed with the provider's reason)"""
        return answering.probe(runtime.get().db, actor=current_org_actor(), agent_id=str(agent_id),
                               messages=body["messages"])


@agents_blp.route("/<uuid:agent_id>/configurador")
class Configurador(MethodView):
    @agents_blp.requires("bot:write")
    @agents_blp.arguments(schemas.ConfiguradorSchema)
    @agents_blp.response(201, schemas.ProposalsSchema)
    def post(self, body, org_id, agent_id):
        """The agent's model proposes system prompts for a goal (up to 3, each with why); nothing is
        changed until one is saved with PATCH (502 ai_provider_failed, 409 ai_spend_cap_reached)"""
        return configurador.propose(runtime.get().db, actor=current_org_actor(), agent_id=str(agent_id), goal=body["goal"])


@pin_blp.route("/<uuid:conversation_id>/agent")
class ConversationAgent(MethodView):
    @pin_blp.requires("conversations:write")
    @pin_blp.arguments(schemas.ConversationAgentSchema)
    @pin_blp.response(200, ConversationSchema)
    def patch(self, body, org_id, conversation_id):
        """Pin the AI agent that answers this conversation (null: the router decides); 404 agent_not_found,
        400 agent_not_on_number. Answers the conversation"""
        conversation = service.do_pin(db_session(), actor=current_org_actor(), conversation_id=str(conversation_id),
                                      agent_id=body["agent_id"])
        return conversations_inbox.with_details(db_session(), [conversation])[0]
