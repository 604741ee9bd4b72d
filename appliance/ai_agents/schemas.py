from marshmallow import fields, post_load, validate

from appliance.ai_providers.base import KINDS as PROVIDER_FAILURES
from appliance.ai_providers.clients import PROVIDERS
from appliance.core.schema import ApiSchema, Credential, IsoDateTime, Text, UuidString, WebAddress


def _tags(**kwargs):
    return fields.List(Text(min_length=1, max_length=50), validate=validate.Length(max=30), **kwargs)


class AgentSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    phone_number_pks = fields.List(fields.String(), data_key="phoneNumberIds",
                                   metadata={"description": "The numbers it serves; empty: all"})
    phone_number_id = fields.Method("_legacy_number", data_key="phoneNumberId", allow_none=True,
                                    metadata={"description": "Legacy: the first of phoneNumberIds"})
    provider = fields.String(metadata={"enum": list(PROVIDERS)})
    model = fields.String()
    system_prompt = fields.String()
    temperature = fields.Float()
    max_tokens = fields.Integer()
    knowledge_doc_ids = fields.List(fields.String(), metadata={"description": "Empty: the whole library"})
    knowledge_tags = fields.List(fields.String())
    route_tags = fields.List(fields.String())
    capabilities = fields.List(fields.String())
    is_default = fields.Boolean()
    enabled = fields.Boolean()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()

    def _legacy_number(self, agent):
        return agent.phone_number_pks[0] if agent.phone_number_pks else None


class AgentUpdateSchema(ApiSchema):
    min_fields = 1
    name = Text(min_length=1, max_length=100)
    phone_number_pks = fields.List(UuidString(), data_key="phoneNumberIds", validate=validate.Length(max=100))
    phone_number_id = UuidString(allow_none=True, data_key="phoneNumberId",
                                 metadata={"description": "Legacy single number (read as phoneNumberIds: [it])"})
    provider = fields.String(validate=validate.OneOf(PROVIDERS))
    model = Text(min_length=1, max_length=200)
    system_prompt = Text(max_length=20_000, multiline=True)
    temperature = fields.Float(allow_nan=False, validate=validate.Range(0, 2))
    max_tokens = fields.Integer(validate=validate.Range(16, 8192))
    knowledge_doc_ids = fields.List(UuidString(), validate=validate.Length(max=500))
    knowledge_tags = _tags()
    route_tags = _tags()
    capabilities = fields.List(fields.String(validate=validate.Length(max=50)), validate=validate.Length(max=20))
    is_default = fields.Boolean()
    enabled = fields.Boolean()

    @post_load
    def _legacy(self, data, **kwargs):
        legacy = data.pop("phone_number_id", "absent")
        if legacy != "absent" and "phone_number_pks" not in data:
            data["phone_number_pks"] = [legacy] if legacy else []
        return data


class AgentCreateSchema(AgentUpdateSchema):
    min_fields = 0
    name = Text(required=True, min_length=1, max_length=100)
    provider = fields.String(required=True, validate=validate.OneOf(PROVIDERS))
    model = Text(required=True, min_length=1, max_length=200)


class AgentListArgsSchema(ApiSchema):
    phone_number_id = UuidString(load_default=None, data_key="phoneNumberId")


class CapabilitySchema(ApiSchema):
    key = fields.String()
    name = fields.String()
    description = fields.String()


class ModelSchema(ApiSchema):
    provider = fields.String()
    model = fields.String()
    context_tokens = fields.Integer(allow_none=True, data_key="contextTokens")
    price_in_per1_m = fields.Float(data_key="priceInPer1M")
    price_out_per1_m = fields.Float(data_key="priceOutPer1M")


class ProviderSchema(ApiSchema):
    provider = fields.String(metadata={"enum": list(PROVIDERS)})
    configured = fields.Boolean()
    base_url = fields.String(allow_none=True)
    last_error = fields.String(allow_none=True, metadata={"description": "What the last call met, in words"})
    last_checked_at = IsoDateTime(allow_none=True)


class ProviderPutSchema(ApiSchema):
    min_fields = 1
    api_key = Credential(max_length=500, metadata={"description": "Kept sealed, never returned; absent: keep the stored one"})
    base_url = WebAddress(allow_none=True, any_host=True, max_length=500, metadata={
        "description": "LOCAL: the server's address (required); others: the vendor's by default"})


class ProviderCheckSchema(ApiSchema):
    ok = fields.Boolean()
    models = fields.List(fields.String())
    error = fields.String(allow_none=True, metadata={"description": "What went wrong, in a sentence of ours"})
    error_code = fields.String(allow_none=True, data_key="errorCode", metadata={"enum": [*PROVIDER_FAILURES, None]})


class ConversationAgentSchema(ApiSchema):
    agent_id = UuidString(required=True, allow_none=True, metadata={"description": "null: the router decides"})


class ProbeMessageSchema(ApiSchema):
    role = fields.String(required=True, validate=validate.OneOf(("user", "assistant")))
    content = Text(required=True, min_length=1, max_length=4000, multiline=True)


class ProbeSchema(ApiSchema):
    messages = fields.List(fields.Nested(ProbeMessageSchema), required=True, validate=validate.Length(min=1, max=40))


class ProbePassageSchema(ApiSchema):
    document_id = fields.String()
    title = fields.String()
    similarity = fields.Float()


class ProbeAnswerSchema(ApiSchema):
    reply = fields.String(attribute="text")
    parts = fields.List(fields.String(), metadata={"description": "The messages a paced bot would send"})
    knowledge = fields.List(fields.Nested(ProbePassageSchema), metadata={"description": "The passages the agent read"})
    actions = fields.List(fields.Dict(), metadata={"description": "What it would have done: handoff, create_task, send_image"})
    tokens_in = fields.Integer()
    tokens_out = fields.Integer()
    latency_ms = fields.Integer()
    cost_usd = fields.Float(metadata={"description": "Estimated from the model's list prices"})


class ConfiguradorSchema(ApiSchema):
    goal = Text(required=True, min_length=3, max_length=2000, multiline=True,
                metadata={"description": "What the agent should achieve, in the owner's words"})


class ProposalSchema(ApiSchema):
    system_prompt = fields.String()
    why = fields.String()


class ProposalsSchema(ApiSchema):
    proposals = fields.List(fields.Nested(ProposalSchema))
    tokens_in = fields.Integer()
    tokens_out = fields.Integer()
    cost_usd = fields.Float()
