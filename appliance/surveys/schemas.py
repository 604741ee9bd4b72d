from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core.schema import ApiSchema, IsoDateTime, Text
from appliance.surveys import service
from appliance.surveys.models import AUDIENCES


class SurveyQuestionSchema(ApiSchema):
    text = Text(required=True, min_length=1, max_length=1024, multiline=True)
    options = fields.List(Text(min_length=1, max_length=service.OPTION_MAX_LENGTH), required=True,
                          validate=validate.Length(min=2, max=service.OTHER_QUESTION_OPTIONS), metadata={
                              "description": "The best first: option i of n scores n - i. At most 20 characters each"})

    @validates_schema
    def _distinct(self, data, **kwargs):
        options = [option.strip().casefold() for option in data.get("options") or ()]
        if len(set(options)) != len(options):
            raise ValidationError("Each option once.", "options")


class SurveyConfigPatchSchema(ApiSchema):
    min_fields = 1
    active = fields.Boolean()
    delay_minutes = fields.Integer(validate=validate.Range(0, 10080), metadata={
        "description": "Minutes after the close (0: at once)"})
    audience = fields.String(validate=validate.OneOf(AUDIENCES), metadata={
        "description": "ALL: every close; HUMAN: a person answered; BOT: only the bot did"})
    cooldown_days = fields.Integer(validate=validate.Range(0, 365), metadata={
        "description": "Not again to the same contact within these days"})
    questions = fields.List(fields.Nested(SurveyQuestionSchema), validate=validate.Length(min=1, max=service.MAX_QUESTIONS),
                            metadata={"description": "Up to 3; the first as reply buttons (up to 3 options), "
                                                     "the others as a list (up to 10)"})
    ask_comment = fields.Boolean()
    comment_question = Text(min_length=1, max_length=1024, multiline=True)
    thanks_message = Text(max_length=1024, multiline=True, allow_none=True)
    answer_timeout_hours = fields.Integer(validate=validate.Range(1, 168))
    phone_number_pks = fields.List(fields.String(validate=validate.Length(max=36)), data_key="phoneNumberIds",
                                   validate=validate.Length(max=100), metadata={"description": "Empty: every number"})

    @validates_schema
    def _first_question(self, data, **kwargs):
        questions = data.get("questions") or ()
        if questions and len(questions[0]["options"]) > service.FIRST_QUESTION_OPTIONS:
            raise ValidationError(f"The first question has at most {service.FIRST_QUESTION_OPTIONS} options "
                                  "(it is sent as reply buttons).", "questions")


class SurveyConfigSchema(ApiSchema):
    active = fields.Boolean()
    delay_minutes = fields.Integer()
    audience = fields.String()
    cooldown_days = fields.Integer()
    questions = fields.List(fields.Nested(SurveyQuestionSchema))
    ask_comment = fields.Boolean()
    comment_question = fields.String(allow_none=True)
    thanks_message = fields.String(allow_none=True)
    answer_timeout_hours = fields.Integer()
    phone_number_pks = fields.List(fields.String(), data_key="phoneNumberIds")
    updated_at = IsoDateTime(allow_none=True, metadata={"description": "null: never saved (the defaults)"})


class SurveyResultsArgsSchema(ApiSchema):
    desde = fields.Date(load_default=None, metadata={
        "description": "YYYY-MM-DD, the organization's date (default: 29 days before hasta); not after hasta, and the "
                       "range covers at most 366 days (400 invalid_range)"})
    hasta = fields.Date(load_default=None, metadata={"description": "YYYY-MM-DD, included (default: today)"})


class SurveyOptionCountSchema(ApiSchema):
    question_index = fields.Integer()
    question = fields.String()
    option_index = fields.Integer()
    option = fields.String()
    count = fields.Integer()


class SurveyAgentResultSchema(ApiSchema):
    user_id = fields.String(allow_none=True, metadata={"description": "null: nobody was assigned"})
    name = fields.String(allow_none=True)
    answered = fields.Integer()
    average_score = fields.Float()


class SurveyCommentSchema(ApiSchema):
    text = fields.String()
    score = fields.Integer(allow_none=True)
    conversation_id = fields.String()
    at = IsoDateTime(allow_none=True)


class SurveyResultsSchema(ApiSchema):
    desde = fields.Date()
    hasta = fields.Date()
    sent = fields.Integer()
    answered = fields.Integer(metadata={"description": "Question 1 answered"})
    response_rate = fields.Float(allow_none=True, metadata={"description": "answered / sent, 0..1"})
    average_score = fields.Float(allow_none=True, metadata={"description": "Question 1's, 1..n options"})
    expired = fields.Integer()
    scheduled = fields.Integer(metadata={"description": "Waiting for their time"})
    by_option = fields.List(fields.Nested(SurveyOptionCountSchema))
    by_agent = fields.List(fields.Nested(SurveyAgentResultSchema))
    comments = fields.List(fields.Nested(SurveyCommentSchema), metadata={"description": "The newest 100"})
    unsent = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "window_closed, cooldown, audience, opted_out, disabled_number, or the sending refusal's code"})
    cancelled = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "reopened (the customer came back first), inactive (surveys turned off)"})
