"""/auth: sign-up, sign-in, tokens, email links, sessions, two-factor, passkeys, impersonation."""

from flask.views import MethodView

from appliance.auth import email_links, passkeys, schemas, service, sessions, two_factor
from appliance.auth.sessions import Device
from appliance.http.api import Blueprint
from appliance.http.auth import client_device, client_ip, current_actor
from appliance.http.unit_of_work import db_session
from appliance.users.schemas import ChangePasswordSchema

blp = Blueprint("auth", __name__, url_prefix="/auth", description="Sign-up, sign-in and sessions")
# /users/me/change-password sits with the person's profile in the API (tagged `users`), but its
# rules (hashing, throttling, closing the other sessions) are sign-in's, and users import no auth.
password_blp = Blueprint("password", __name__, url_prefix="/users/me", description="The signed-in person's password",
                         shown_with="users")


def _device() -> Device:
    return Device(ip=client_ip(), user_agent=client_device())


def _ok(message: str) -> dict:
    return {"message": message}


@blp.route("/signup")
class Signup(MethodView):
    @blp.public
    @blp.arguments(schemas.SignupSchema)
    @blp.response(201, schemas.SignInSchema)
    def post(self, body):
        """Create an account and sign in; a verification mail is sent"""
        return service.check_signup(db_session(), device=_device(), **body)


@blp.route("/login")
class Login(MethodView):
    @blp.public
    @blp.arguments(schemas.LoginSchema)
    @blp.response(200, schemas.SignInSchema)
    def post(self, body):
        """Sign in with email and password (and a 2FA code when enabled)"""
        return service.check_login(db_session(), device=_device(), **body)


@blp.route("/refresh")
class Refresh(MethodView):
    @blp.public
    @blp.arguments(schemas.RefreshSchema)
    @blp.response(200, schemas.TokensSchema)
    def post(self, body):
        """Trade a refresh token for a new pair (the old one is spent)"""
        return {"tokens": sessions.check_refresh(db_session(), device=_device(), **body)}


@blp.route("/logout")
class Logout(MethodView):
    @blp.public
    @blp.arguments(schemas.RefreshSchema)
    @blp.response(204)
    def post(self, body):
        """Close the session of a refresh token"""
        sessions.do_logout(db_session(), **body)


@blp.route("/forgot-password")
class ForgotPassword(MethodView):
    @blp.public
    @blp.arguments(schemas.EmailSchema)
    @blp.response(200, schemas.MessageSchema)
    def post(self, body):
        """Mail a password-reset link (answers the same whether the account exists or not)"""
        email_links.do_forgot_password(db_session(), **body)
        return _ok("If an account exists for this email, a reset link is on its way.")


@blp.route("/reset-password")
class ResetPassword(MethodView):
    @blp.public
    @blp.arguments(schemas.ResetPasswordSchema)
    @blp.response(200, schemas.MessageSchema)
    def post(self, body):
        """Set a new password with a mailed token; closes every session"""
        email_links.check_reset_password(db_session(), ip=client_ip(), **body)
        return _ok("Password changed. Sign in with the new password.")


@blp.route("/verify-email")
class VerifyEmail(MethodView):
    @blp.public
    @blp.arguments(schemas.TokenSchema)
    @blp.response(200, schemas.MessageSchema)
    def post(self, body):
        """Mark the email verified with the mailed token"""
        email_links.check_verify_email(db_session(), ip=client_ip(), **body)
        return _ok("Email verified.")


@blp.route("/resend-verification")
class ResendVerification(MethodView):
    @blp.response(200, schemas.MessageSchema)
    def post(self):
        """Send the verification mail again (nothing is sent when already verified)"""
        sent = email_links.check_resend_verification(db_session(), actor=current_actor())
        return _ok("Verification mail sent." if sent else "Email already verified; nothing sent.")


@blp.route("/impersonate-redeem")
class ImpersonateRedeem(MethodView):
    @blp.public
    @blp.arguments(schemas.TokenSchema)
    @blp.response(200, schemas.SignInSchema)
    def post(self, body):
        """Redeem a staff impersonation token; the JWT carries impersonatedBy"""
        return service.check_redeem_impersonation(db_session(), device=_device(), **body)


@blp.route("/me/sessions")
class MySessions(MethodView):
    @blp.response(200, schemas.SessionSchema(many=True))
    def get(self):
        """List the devices signed in to this account; the current one is marked"""
        actor = current_actor()
        return [dict(vars(s), current=s.id == actor.session_id)
                for s in sessions.list_sessions(db_session(), actor=actor)]

    @blp.response(200, schemas.ClosedSessionsSchema)
    def delete(self):
        """Close every session except the current one"""
        return {"closed": sessions.do_close_other_sessions(db_session(), actor=current_actor())}


@blp.route("/me/sessions/<uuid:session_id>")
class MySessionById(MethodView):
    @blp.response(204)
    def delete(self, session_id):
        """Close one session"""
        sessions.do_close_session(db_session(), actor=current_actor(), session_id=str(session_id))


@blp.route("/2fa/setup")
class TwoFactorSetup(MethodView):
    @blp.response(200, schemas.TwoFactorSetupSchema)
    def post(self):
        """Start TOTP enrolment: secret, otpauth URI and QR code"""
        return two_factor.do_setup(db_session(), actor=current_actor())


@blp.route("/2fa/enable")
class TwoFactorEnable(MethodView):
    @blp.arguments(schemas.TwoFactorCodeSchema)
    @blp.response(200, schemas.RecoveryCodesSchema)
    def post(self, body):
        """Turn 2FA on with a code from the app; answers 10 recovery codes, shown once"""
        codes = two_factor.check_enable(db_session(), actor=current_actor(), ip=client_ip(), **body)
        return {"recovery_codes": codes}


@blp.route("/2fa/disable")
class TwoFactorDisable(MethodView):
    @blp.arguments(schemas.TwoFactorDisableSchema)
    @blp.response(200, schemas.MessageSchema)
    def post(self, body):
        """Turn 2FA off with the password and a TOTP or recovery code"""
        two_factor.check_disable(db_session(), actor=current_actor(), ip=client_ip(), **body)
        return _ok("Two-factor authentication is off.")


@blp.route("/2fa/recovery-codes")
class TwoFactorRecoveryCodes(MethodView):
    @blp.arguments(schemas.TwoFactorCodeSchema)
    @blp.response(200, schemas.RecoveryCodesSchema)
    def post(self, body):
        """Replace the recovery codes (the old ones stop working)"""
        codes = two_factor.check_regenerate_recovery_codes(db_session(), actor=current_actor(),
                                                           ip=client_ip(), **body)
        return {"recovery_codes": codes}


@blp.route("/passkeys/register/options")
class PasskeyRegisterOptions(MethodView):
    @blp.response(200, schemas.PasskeyOptionsSchema)
    def post(self):
        """Start adding a passkey: options for navigator.credentials.create

        Their challenge works once, for 5 minutes. 409 passkeys_unavailable unless the public address is https or
        localhost.
        """
        return {"public_key": passkeys.do_registration_options(db_session(), actor=current_actor(), ip=client_ip())}


@blp.route("/passkeys/register/verify")
class PasskeyRegisterVerify(MethodView):
    @blp.arguments(schemas.PasskeyRegisterSchema)
    @blp.response(201, schemas.PasskeySchema)
    def post(self, body):
        """Keep the passkey the browser made

        A stale or spent challenge, another origin or relying party: 401 passkey_rejected.
        """
        return passkeys.check_register(db_session(), actor=current_actor(), ip=client_ip(), **body)


@blp.route("/passkeys/login/options")
class PasskeyLoginOptions(MethodView):
    @blp.public
    @blp.response(200, schemas.PasskeyOptionsSchema)
    def post(self):
        """Start signing in with a passkey, no email needed: options for navigator.credentials.get"""
        return {"public_key": passkeys.do_login_options(db_session(), ip=client_ip())}


@blp.route("/passkeys/login/verify")
class PasskeyLoginVerify(MethodView):
    @blp.public
    @blp.arguments(schemas.PasskeyLoginSchema)
    @blp.response(200, schemas.SignInSchema)
    def post(self, body):
        """Sign in with the passkey's answer: the same user and tokens as /auth/login

        With two-step sign-in on, a passkey that did not verify the person (no UV flag) needs twoFactorCode too:
        without it 401 two_factor_required, and the same credential is sent again with the code.
        """
        return service.check_passkey_login(db_session(), device=_device(), **body)


@blp.route("/me/passkeys")
class MyPasskeys(MethodView):
    @blp.response(200, schemas.PasskeySchema(many=True))
    def get(self):
        """List my passkeys"""
        return passkeys.list_passkeys(db_session(), actor=current_actor())


@blp.route("/me/passkeys/<uuid:passkey_id>")
class MyPasskeyById(MethodView):
    @blp.response(204)
    def delete(self, passkey_id):
        """Remove one of my passkeys (it no longer signs in)"""
        passkeys.do_remove(db_session(), actor=current_actor(), passkey_id=str(passkey_id))


@password_blp.route("/change-password")
class ChangePassword(MethodView):
    @password_blp.arguments(ChangePasswordSchema)
    @password_blp.response(204)
    def post(self, body):
        """Change my password; my other sessions are closed"""
        service.check_change_password(db_session(), actor=current_actor(), ip=client_ip(), **body)
