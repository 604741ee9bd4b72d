from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.bots.config import ACTIVITY_KINDS, AI_PROVIDERS, FOLLOW_UP_MODES, MODES, PACES
from appliance.bots.matching import MATCH_TYPES
from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString
from appliance.organizations.schemas import BusinessHoursSchema

_TEXT = 4096
_LIST = 100


def _text(**kwargs):
    return Text(max_length=_TEXT, multiline=True, **kwargs)


def _words():
    return fields.List(Text(min_length=1, max_length=200), validate=validate.Length(max=_LIST))


def _int(low: int, high: int, description: str | None = None):
    return fields.Integer(validate=validate.Range(low, high), metadata={"description": description} if description else {})


def _number(low: float, high: float):
    return fields.Float(validate=validate.Range(low, high), allow_nan=False)


class BotConfigUpdateSchema(ApiSchema):
    """Every field is optional; what is left out keeps its value (or its default)."""

    enabled = fields.Boolean()
    mode = fields.String(validate=validate.OneOf(MODES))
    cooldown_seconds = fields.Float(load_only=True, allow_nan=False,
                                    metadata={"description": "Obsolete: accepted, stored nowhere, never returned"})
    debounce_seconds = _int(0, 120, "Silence before replying, grouping consecutive messages; 0 = at once")
    ritmo_de_respuesta = fields.String(validate=validate.OneOf(PACES))
    velocidad_tecleo_cps = _int(1, 100, "Characters per second of the NATURAL and PAUSADO paces")
    max_replies_per_window = _int(0, 1000, "Bot replies per contact within the window before a hand-off; 0 = no cap")
    reply_window_minutes = _int(1, 1440)
    post_flow_grace_min = _int(0, 1440, "Minutes after a flow ends in which it does not start again")
    disclosure_message = _text()
    human_handoff_keywords = _words()
    handoff_message = _text()
    ai_provider = fields.String(allow_none=True, validate=validate.OneOf(AI_PROVIDERS))
    ai_model = Text(max_length=200, allow_none=True)
    ai_system_prompt = Text(max_length=20000, multiline=True, allow_none=True)
    ai_temperature = _number(0, 2)
    ai_max_tokens = _int(1, 8000)
    intent_classifier_enabled = fields.Boolean()
    knowledge_top_k = _int(1, 20)
    knowledge_min_similarity = _number(0, 1)
    knowledge_tags = _words()
    welcome_enabled = fields.Boolean()
    welcome_message = _text()
    out_of_hours_enabled = fields.Boolean()
    out_of_hours_message = _text()
    out_of_hours_schedule = fields.Nested(BusinessHoursSchema, allow_none=True, metadata={
        "description": "Opening intervals per weekday; null = the organization's business hours"})
    out_of_hours_task_enabled = fields.Boolean()
    out_of_hours_task_message = _text(metadata={"description": "{apertura} becomes the next opening"})
    out_of_hours_task_grace_min = _int(0, 1440)
    fallback_enabled = fields.Boolean()
    fallback_message = _text()
    follow_up_enabled = fields.Boolean()
    follow_up_after_min = _int(1, 10080)
    follow_up_close_after_min = _int(1, 10080)
    follow_up_mode = fields.String(validate=validate.OneOf(FOLLOW_UP_MODES))
    follow_up_message = _text()
    follow_up_close_message = _text(metadata={"description": "Empty: close without a farewell"})
    protected_values = fields.List(Text(min_length=1, max_length=200), validate=validate.Length(max=_LIST),
                                   metadata={"description": "Accounts and numbers the bot knows but never sends"})


class BotConfigSchema(BotConfigUpdateSchema):
    phone_number_pk = fields.String(data_key="phoneNumberId")
    saved = fields.Boolean(metadata={"description": "False while only the defaults exist"})
    created_at = IsoDateTime(allow_none=True)
    updated_at = IsoDateTime(allow_none=True)


class BotToggleSchema(ApiSchema):
    enabled = fields.Boolean(metadata={"description": "Set it; left out: flip it"})


RULE_ACTIONS = ("NONE", "HANDOFF", "START_FLOW", "ADD_TAG", "CLOSE")


class BotRuleSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    phone_number_pks = fields.List(fields.String(), data_key="phoneNumberIds")
    keywords = fields.List(fields.String())
    match_type = fields.String()
    reply = fields.String()
    action = fields.String()
    flow_id = fields.String(allow_none=True)
    tag_id = fields.String(allow_none=True)
    image_id = fields.String(allow_none=True)
    priority = fields.Integer()
    enabled = fields.Boolean()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class BotRuleUpdateSchema(ApiSchema):
    """A rule must do something: a reply, an action other than NONE, or both. START_FLOW names a
    flow, ADD_TAG a tag, both of this organization."""

    name = Text(min_length=1, max_length=100)
    phone_number_pks = fields.List(UuidString(), data_key="phoneNumberIds", validate=validate.Length(max=100),
                                   metadata={"description": "Numbers it answers on; empty = every number"})
    keywords = fields.List(Text(min_length=1, max_length=100), validate=validate.Length(min=1, max=50),
                           metadata={"description": "Words matched case and accents aside, as whole words"})
    match_type = fields.String(validate=validate.OneOf(MATCH_TYPES))
    reply = _text()
    action = fields.String(validate=validate.OneOf(RULE_ACTIONS))
    flow_id = UuidString(allow_none=True)
    tag_id = UuidString(allow_none=True)
    image_id = UuidString(allow_none=True, metadata={"description": "An image of the bot's library sent with the reply"})
    priority = _int(0, 100000, "Lower is tried first")
    enabled = fields.Boolean()


class BotRuleCreateSchema(BotRuleUpdateSchema):
    name = Text(required=True, min_length=1, max_length=100)
    keywords = fields.List(Text(min_length=1, max_length=100), required=True, validate=validate.Length(min=1, max=50),
                           metadata={"description": "Words matched case and accents aside, as whole words"})


class BotActivitySchema(ApiSchema):
    id = fields.String()
    kind = fields.String()
    phone_number_pk = fields.String(data_key="phoneNumberId", allow_none=True)
    conversation_id = fields.String(allow_none=True)
    detail = fields.Dict(metadata={"description": "What was decided and why (the rule, the reason it skipped...)"})
    created_at = IsoDateTime()


class BotActivityPageSchema(ApiSchema):
    items = fields.List(fields.Nested(BotActivitySchema))
    next_cursor = fields.String(allow_none=True)


class BotActivityArgsSchema(PageArgsSchema):
    phone_number_pk = UuidString(data_key="phoneNumberId", load_default=None)
    conversation_id = UuidString(load_default=None)
    kind = fields.String(load_default=None, validate=validate.OneOf(ACTIVITY_KINDS))


class AgentStatsArgsSchema(ApiSchema):
    dias = fields.Integer(load_default=30, validate=validate.Range(1, 365), metadata={"description": "Days back"})


class AgentStatsSchema(ApiSchema):
    agent_id = fields.String(allow_none=True, metadata={"description": "null: the number's own AI settings"})
    name = fields.String(allow_none=True)
    provider = fields.String(allow_none=True)
    model = fields.String(allow_none=True)
    conversations = fields.Integer(metadata={"description": "Conversations it answered"})
    replies = fields.Integer()
    handoffs = fields.Integer(metadata={"description": "Replies that handed the conversation to a person"})
    errors = fields.Integer(metadata={"description": "Provider failures (the fallback was sent)"})
    tokens_in = fields.Integer()
    tokens_out = fields.Integer()
    cost_usd = fields.Float(metadata={"description": "Estimated from the model's list prices"})


class BotProblemSchema(ApiSchema):
    code = fields.String()
    detail = fields.String()


class BotNumberHealthSchema(ApiSchema):
    phone_number_pk = fields.String(data_key="phoneNumberId")
    enabled = fields.Boolean()
    mode = fields.String()
    healthy = fields.Boolean()
    problems = fields.List(fields.Nested(BotProblemSchema))


class BotHealthSchema(ApiSchema):
    numbers = fields.List(fields.Nested(BotNumberHealthSchema))


STEP_TYPES = ("message", "question", "buttons", "set_tag", "handoff", "transfer_to_ai", "end")
ANSWER_CHECKS = ("TEXT", "NUMBER", "EMAIL", "PHONE", "DATE")
_STEP_ID = validate.Regexp(r"^[A-Za-z0-9_\-]{1,60}$", error="1 to 60 letters, digits, - or _.")
# The fields each type needs, and those it may have (besides id, type and next).
STEP_FIELDS = {
    "message": ({"text"}, set()), "question": ({"text", "save_as"}, {"answer_check", "error_text"}),
    "buttons": ({"text", "options"}, set()), "set_tag": ({"tag_id"}, set()), "handoff": (set(), {"text"}),
    "transfer_to_ai": (set(), {"agent_id"}), "end": (set(), {"text"}),
}


class FlowOptionSchema(ApiSchema):
    id = fields.String(required=True, validate=_STEP_ID)
    title = Text(required=True, min_length=1, max_length=20, metadata={"description": "What the button says (≤ 20)"})
    next = fields.String(required=True, validate=_STEP_ID, metadata={"description": "The step this choice leads to"})


class FlowStepSchema(ApiSchema):
    """One step. message {text}; question {text, saveAs, validate, errorText}; buttons {text,
    options (1-3: reply buttons, 4-10: a list)}; set_tag {tagId}; handoff {text?};
    transfer_to_ai {agentId?}; end {text?}. `next` (not for buttons, handoff, transfer_to_ai, end)
    is the step after; none ends the flow."""

    id = fields.String(required=True, validate=_STEP_ID)
    type = fields.String(required=True, validate=validate.OneOf(STEP_TYPES))
    next = fields.String(allow_none=True, validate=_STEP_ID)
    text = Text(max_length=1024, multiline=True, metadata={"description": "≤ 1024 (a buttons message's limit)"})
    save_as = fields.String(validate=validate.Regexp(r"^[A-Za-z][A-Za-z0-9_]{0,39}$", error="A name of letters, digits and _."),
                   metadata={"description": "The contact attribute the answer is saved to"})
    answer_check = fields.String(data_key="validate", validate=validate.OneOf(ANSWER_CHECKS),
                                 metadata={"description": "How the answer is checked (default TEXT)"})
    error_text = Text(max_length=1024, multiline=True)
    options = fields.List(fields.Nested(FlowOptionSchema), validate=validate.Length(min=1, max=10),
                          metadata={"description": "Up to 3 as reply buttons, up to 10 as a list"})
    tag_id = UuidString()
    agent_id = UuidString(allow_none=True)

    @validates_schema
    def _fields_of_type(self, data, **kwargs):
        kind = data.get("type")
        if kind not in STEP_FIELDS:
            return
        needed, optional = STEP_FIELDS[kind]
        errors = {}
        for name in needed:
            if data.get(name) in (None, "", []):
                errors[self.fields[name].data_key or name] = [f"Required for a step of type {kind}."]
        for name in {"text", "save_as", "answer_check", "error_text", "options", "tag_id", "agent_id"} - needed - optional:
            if data.get(name) is not None:
                errors[self.fields[name].data_key or name] = [f"Not part of a step of type {kind}."]
        if kind in ("buttons", "handoff", "transfer_to_ai", "end") and data.get("next"):
            errors["next"] = [f"A step of type {kind} has no next ({'each option has its own' if kind == 'buttons' else 'it ends the flow'})."]
        if errors:
            raise ValidationError(errors)


class BotFlowSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    phone_number_pks = fields.List(fields.String(), data_key="phoneNumberIds")
    trigger_keywords = fields.List(fields.String())
    enabled = fields.Boolean()
    steps = fields.List(fields.Dict(), metadata={"description": "The steps as they were saved (see FlowStep)"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class BotFlowUpdateSchema(ApiSchema):
    """A flow is checked whole when saved: every `next` names a step, no loop lacks a question,
    each tag exists; a flow that could stall a customer is refused here."""

    name = Text(min_length=1, max_length=100)
    phone_number_pks = fields.List(UuidString(), data_key="phoneNumberIds", validate=validate.Length(max=100),
                                   metadata={"description": "Numbers it runs on; empty = every number"})
    trigger_keywords = fields.List(Text(min_length=1, max_length=100), validate=validate.Length(max=50),
                                   metadata={"description": "Words that start it (as rules match them)"})
    enabled = fields.Boolean()
    steps = fields.List(fields.Nested(FlowStepSchema), validate=validate.Length(min=1, max=50),
                        metadata={"description": "The first step is where the flow starts"})


class BotFlowCreateSchema(BotFlowUpdateSchema):
    name = Text(required=True, min_length=1, max_length=100)
    steps = fields.List(fields.Nested(FlowStepSchema), required=True, validate=validate.Length(min=1, max=50),
                        metadata={"description": "The first step is where the flow starts"})


class BotFlowTemplateSchema(ApiSchema):
    language = fields.String()
    key = fields.String()
    description = fields.String()
    flow = fields.Dict(metadata={"description": "A body for POST /bot/flows, as it is"})
