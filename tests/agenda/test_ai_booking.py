"""Issue 24, part 5 with issue 20's agents: an AI agent with the `schedule_appointment`
capability reads the agenda's free times and books one for the customer of the conversation,
through a real provider client and the AI double; never a time that is not free; the probador
only checks. The booking is in the agenda, linked to the conversation, and in the bot's log."""

from datetime import timedelta

from appliance.core import clock
from tests.bots.test_bot_engine import _bot, _reads_outlive_the_clock, _texts, _write  # noqa: F401

HOURS = {day: [{"open": "09:00", "close": "12:00"}] for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}


def _agent(line, api):
    token, base = line.owner["token"], f"/organizations/{line.org_id}"
    assert api.patch(base, {"timezone": "UTC", "businessHoursSchedule": HOURS}, token=token).status_code == 200
    assert api.put(f"{base}/bot/providers/LOCAL", {"baseUrl": f"{line.netsim_url}/ai/openai"}, token=token).status_code == 200
    made = api.post(f"{base}/bot/agents", {"name": "Citas", "provider": "LOCAL", "model": "double-small", "isDefault": True,
                                           "capabilities": ["schedule_appointment"]}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]


def test_the_agent_tells_free_times_and_books_one_for_the_customer(line, api):
    _agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    day = (clock.now() + timedelta(days=2)).date().isoformat()
    _write(line, f"¿Qué horarios tienen el {day}?")
    assert _texts(line)[-1].startswith(f"Free times on {day} for 30 minutes: 09:00, 09:30, 10:00")
    _write(line, f"Quiero la cita el {day} a las 10:00")
    assert _texts(line)[-1] == f"Booked for {day} 10:00 (30 minutes)."
    [booked] = line.get(f"/agenda/appointments?from={day}T00:00:00Z")
    [conversation] = line.get("/conversations")["items"]
    assert (booked["start"], booked["conversationId"], booked["contactId"], booked["title"]) == (
        f"{day}T10:00:00.000Z", conversation["id"], conversation["contactId"], "Ana Pérez")  # titled by the customer
    logged = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "AI_REPLY")
    assert logged["detail"]["booked"] == [{"start": f"{day} 10:00", "appointmentId": booked["id"]}]

    _write(line, f"Y otra el {day} a las 10:00")  # taken now: never double-booked
    assert _texts(line)[-1].startswith(f"{day} 10:00 is not free.")
    _write(line, f"¿Y el {day} a las 18:00?")  # outside the business hours
    assert "is not free" in _texts(line)[-1]
    assert len(line.get(f"/agenda/appointments?from={day}T00:00:00Z")) == 1


def test_the_probador_checks_a_booking_without_making_it(line, api):
    agent = _agent(line, api)
    day = (clock.now() + timedelta(days=2)).date().isoformat()
    answered = api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/probador",
                        {"messages": [{"role": "user", "content": f"Una cita el {day} a las 09:30"}]},
                        token=line.owner["token"])
    assert answered.status_code == 201, answered.json
    assert answered.json["data"]["reply"] == f"Booked for {day} 09:30 (a test: nothing was saved)."
    assert line.get("/agenda/appointments") == []
