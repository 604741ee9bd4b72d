"""What the invitation page says, in every language; `errors` words the failures a person meets there."""

from appliance.http.pages import Texts

TEXTS = Texts(
    "invitations",
    en={
        "title": "Join {organization}",
        "intro": "You were invited as {role}, with {email}.",
        "have_account": "I have an account",
        "new_account": "I am new here",
        "name": "Your name",
        "password": "Password",
        "new_password": "Choose a password (8 or more characters)",
        "code": "Two-factor code (if you use one)",
        "join": "Join",
        "create_join": "Create my account and join",
        "joined": "Welcome! You are now a member of {organization}.", "open_inbox": "Open the inbox",
        "open_console": "Your account and team",
        "invalid": "This invitation is invalid, used, revoked or expired.",
        "errors": {
            "invalid_credentials": "The password is incorrect.",
            "two_factor_required": "Enter the code from your authenticator app.",
            "invalid_two_factor_code": "That code is not valid.",
            "too_many_requests": "Too many attempts. Wait a few minutes and try again.",
            "email_taken": "An account with this email exists: use “I have an account”.",
            "already_member": "You are already a member.",
        },
    },
    es={
        "title": "Únete a {organization}",
        "intro": "Te invitaron como {role}, con {email}.",
        "have_account": "Ya tengo cuenta",
        "new_account": "Soy nuevo",
        "name": "Tu nombre",
        "password": "Contraseña",
        "new_password": "Elige una contraseña (8 caracteres o más)",
        "code": "Código de verificación (si lo usas)",
        "join": "Unirme",
        "create_join": "Crear mi cuenta y unirme",
        "joined": "¡Bienvenido! Ya eres miembro de {organization}.", "open_inbox": "Abrir la bandeja",
        "open_console": "Tu cuenta y tu equipo",
        "invalid": "Esta invitación no es válida, ya se usó, se revocó o caducó.",
        "errors": {
            "invalid_credentials": "La contraseña no es correcta.",
            "two_factor_required": "Escribe el código de tu aplicación de autenticación.",
            "invalid_two_factor_code": "Ese código no es válido.",
            "too_many_requests": "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
            "email_taken": "Ya existe una cuenta con este correo: usa «Ya tengo cuenta».",
            "already_member": "Ya eres miembro.",
        },
    },
)
