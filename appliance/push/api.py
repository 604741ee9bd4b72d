"""/push: a person's browsers and devices, and what they are told. `/push/rotate` is public: a
service worker has no session when the browser renews its subscription."""

from flask import request
from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor
from appliance.http.unit_of_work import db_session
from appliance.push import schemas, service
from appliance.users import service as users_service

blp = Blueprint("push", __name__, url_prefix="/push", description="Push notifications: Web Push and native devices")


@blp.route("/config")
class Config(MethodView):
    @blp.response(200, schemas.PushConfigSchema)
    def get(self):
        """The VAPID public key, and whether native push can be sent"""
        return service.config(db_session())


@blp.route("/subscribe")
class Subscribe(MethodView):
    @blp.arguments(schemas.PushSubscribeSchema)
    @blp.response(200, schemas.PushSubscriptionSchema)
    def post(self, body):
        """Keep this browser's subscription (https endpoints, or http on loopback)"""
        return service.do_subscribe(db_session(), actor=current_actor(), user_agent=request.user_agent.string[:300] or None,
                                    **body)

    @blp.arguments(schemas.PushUnsubscribeSchema)
    @blp.response(204)
    def delete(self, body):
        """Forget this browser's subscription"""
        service.do_unsubscribe(db_session(), actor=current_actor(), **body)


@blp.route("/rotate")
class Rotate(MethodView):
    @blp.public
    @blp.arguments(schemas.PushRotateSchema)
    @blp.response(200, schemas.PushSubscriptionSchema)
    def post(self, body):
        """The service worker's renewed subscription replaces the old one (the old endpoint is the proof)"""
        return service.do_rotate(db_session(), **body)


@blp.route("/device")
class Device(MethodView):
    @blp.arguments(schemas.PushDeviceCreateSchema)
    @blp.response(200, schemas.PushDeviceSchema)
    def post(self, body):
        """Keep the mobile app's device token"""
        return service.do_register_device(db_session(), actor=current_actor(), **body)

    @blp.arguments(schemas.PushDeviceDeleteSchema)
    @blp.response(204)
    def delete(self, body):
        """Forget a device token (sign-out in the app)"""
        service.do_remove_device(db_session(), actor=current_actor(), **body)


@blp.route("/subscriptions")
class Subscriptions(MethodView):
    @blp.response(200, schemas.PushMineItemSchema(many=True))
    def get(self):
        """My browsers and devices with push on, oldest first, in one list"""
        return service.list_mine(db_session(), actor=current_actor())


@blp.route("/diagnose")
class Diagnose(MethodView):
    @blp.arguments(schemas.PushDiagnoseArgsSchema, location="query")
    @blp.response(200, schemas.PushDiagnoseSchema)
    def get(self, args):
        """Whether this browser's subscription is known, and how its last pushes went"""
        return service.diagnose(db_session(), actor=current_actor(), **args)


@blp.route("/test")
class Test(MethodView):
    @blp.response(200, schemas.PushTestSentSchema)
    def post(self):
        """A test notification to all my browsers and devices (sent right after this answer)"""
        me = users_service.access_me(db_session(), actor=current_actor())
        return service.do_send_test(db_session(), actor=current_actor(), locale=me.locale)


@blp.route("/preferences")
class Preferences(MethodView):
    @blp.response(200, schemas.PushPreferencesSchema)
    def get(self):
        """What I am pushed"""
        return {"triggers": service.preferences(db_session(), current_actor().user_id)}

    @blp.arguments(schemas.PushPreferencesSchema)
    @blp.response(200, schemas.PushPreferencesSchema)
    def put(self, body):
        """Choose what I am pushed: assigned, customer_message, handoff, unanswered"""
        return {"triggers": service.do_set_preferences(db_session(), actor=current_actor(), **body)}
