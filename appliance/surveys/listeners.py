"""What the surveys hear from the outbox: closes (a survey decided) and customers' messages
(answers). The handlers live with their work (closing.py, answers.py); their module and name are
their outbox cursors, so they are subscribed here without moving."""

from appliance.core import dispatcher, events
from appliance.surveys import answers, closing

dispatcher.subscribe(events.CONVERSATION_UPDATED, batch=True,
                     when=lambda data: "status" in (data.get("changes") or ()))(closing.decide_surveys)
dispatcher.subscribe(events.MESSAGE_CREATED, batch=True,
                     when=lambda data: data.get("direction") == "in")(answers.hear_answers)
