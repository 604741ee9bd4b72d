"""The text of every mail we send, in English and Spanish."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MailText:
    subject: str
    body: str


_TEXTS: dict[str, dict[str, MailText]] = {
    "conversation_waiting": {
        "en": MailText(
            "{contact} has waited {minutes} minutes for an answer",
            "Hello {name},\n\n{contact} wrote to {organization} {minutes} minutes ago and nobody has answered yet.\n\n"
            "Open the conversation:\n{link}\n\n"
            "You get this mail because the organization's inbox notifies waits longer than {delay} minutes.\n"),
        "es": MailText(
            "{contact} lleva {minutes} minutos esperando respuesta",
            "Hola {name}:\n\n{contact} escribió a {organization} hace {minutes} minutos y nadie ha respondido aún.\n\n"
            "Abre la conversación:\n{link}\n\n"
            "Recibes este correo porque la bandeja de la organización avisa de esperas de más de {delay} minutos.\n"),
    },
    "mail_server_test": {
        "en": MailText(
            "Test mail from your appliance",
            "Hello {name},\n\nThis mail proves that {host} delivers the appliance's mail: invitations, password "
            "resets and notices will now reach people.\n"),
        "es": MailText(
            "Correo de prueba de tu equipo",
            "Hola {name}:\n\nEste correo demuestra que {host} entrega el correo del equipo: las invitaciones, los "
            "restablecimientos de contraseña y los avisos llegarán a las personas.\n"),
    },
    "verify_email": {
        "en": MailText(
            "Confirm your email address",
            "Hello {name},\n\nConfirm your email address by opening this link:\n{link}\n\n"
            "Or send this token to POST /auth/verify-email: {token}\n\n"
            "The link is valid for {hours} hours. If you did not sign up, ignore this mail.\n"),
        "es": MailText(
            "Confirma tu correo electrónico",
            "Hola {name}:\n\nConfirma tu correo abriendo este enlace:\n{link}\n\n"
            "O envía este token a POST /auth/verify-email: {token}\n\n"
            "El enlace vale {hours} horas. Si no creaste una cuenta, ignora este correo.\n"),
    },
    "reset_password": {
        "en": MailText(
            "Reset your password",
            "Hello {name},\n\nSomeone asked to reset the password of this account. "
            "To choose a new one, open:\n{link}\n\nOr send this token to POST /auth/reset-password: {token}\n\n"
            "The link works once and for one hour. If it was not you, ignore this mail: "
            "your password stays as it is.\n"),
        "es": MailText(
            "Restablece tu contraseña",
            "Hola {name}:\n\nAlguien pidió restablecer la contraseña de esta cuenta. "
            "Para elegir una nueva, abre:\n{link}\n\nO envía este token a POST /auth/reset-password: {token}\n\n"
            "El enlace funciona una vez y durante una hora. Si no fuiste tú, ignora este correo: "
            "tu contraseña no cambia.\n"),
    },
    "password_changed": {
        "en": MailText(
            "Your password was changed",
            "Hello {name},\n\nThe password of your account was changed and your other sessions "
            "were closed. If it was not you, reset your password now at {base_url}.\n"),
        "es": MailText(
            "Tu contraseña cambió",
            "Hola {name}:\n\nLa contraseña de tu cuenta cambió y se cerraron tus otras sesiones. "
            "Si no fuiste tú, restablécela ya en {base_url}.\n"),
    },
    "invitation": {
        "en": MailText(
            "{inviter} invited you to {organization}",
            "Hello,\n\n{inviter} invited you to join {organization} as {role}.\n\n"
            "Accept here (sign in with this email, or create an account with it):\n{link}\n\n"
            "Or, signed in, POST /invitations/{token}/accept\n\n"
            "The invitation is valid for {days} days.\n"),
        "es": MailText(
            "{inviter} te invitó a {organization}",
            "Hola:\n\n{inviter} te invitó a unirte a {organization} como {role}.\n\n"
            "Acepta aquí (inicia sesión con este correo o crea una cuenta con él):\n{link}\n\n"
            "O, con sesión iniciada, POST /invitations/{token}/accept\n\n"
            "La invitación vale {days} días.\n"),
    },
    "two_factor_enabled": {
        "en": MailText("Two-factor authentication is on",
                       "Hello {name},\n\nTwo-factor authentication was turned on for your account. "
                       "Keep your recovery codes somewhere safe.\n"),
        "es": MailText("La verificación en dos pasos está activa",
                       "Hola {name}:\n\nSe activó la verificación en dos pasos en tu cuenta. "
                       "Guarda tus códigos de recuperación en un lugar seguro.\n"),
    },
    "two_factor_disabled": {
        "en": MailText("Two-factor authentication is off",
                       "Hello {name},\n\nTwo-factor authentication was turned off for your account. "
                       "If it was not you, reset your password now at {base_url}.\n"),
        "es": MailText("La verificación en dos pasos está desactivada",
                       "Hola {name}:\n\nSe desactivó la verificación en dos pasos en tu cuenta. "
                       "Si no fuiste tú, restablece tu contraseña ya en {base_url}.\n"),
    },
    "webhook_failing": {
        "en": MailText("A webhook of {organization} has failed for a day",
                       "Hello {name},\n\nThe webhook to {url} has not accepted an event since {since} (UTC). "
                       "Last answer: {last}.\n\nEvents keep waiting for it and are retried on schedule; after "
                       "eight attempts an event is given up. See its delivery log:\n{link}\n"),
        "es": MailText("Un webhook de {organization} lleva un día fallando",
                       "Hola {name}:\n\nEl webhook a {url} no ha aceptado ningún evento desde {since} (UTC). "
                       "Última respuesta: {last}.\n\nLos eventos siguen esperándolo y se reintentan según el "
                       "calendario; tras ocho intentos un evento se da por perdido. Mira su registro de entregas:\n{link}\n"),
    },
    "shift_reminder": {
        "en": MailText("{subject}", "Hello {name},\n\n{text}\n\nYour shift in the inbox:\n{link}\n"),
        "es": MailText("{subject}", "Hola {name}:\n\n{text}\n\nTu turno en la bandeja:\n{link}\n"),
    },
}


def render(kind: str, locale: str, **values) -> MailText:
    texts = _TEXTS[kind]
    text = texts.get(locale) or texts["en"]
    return MailText(text.subject.format(**values), text.body.format(**values))
