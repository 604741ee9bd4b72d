"""What the sign-in pages say, in every language (appliance/http/pages.py: Texts)."""

from appliance.http.pages import Texts

TEXTS = Texts(
    "auth",
    en={
        "verify_title": "Confirm your email", "verify_intro": "Press the button to confirm this address.",
        "verify_button": "Confirm my email", "verified": "Your email is confirmed. You can close this page.",
        "reset_title": "Choose a new password",
        "reset_intro": "At least 8 characters. Every session of the account will be closed.",
        "password": "New password", "confirm": "Repeat it", "reset_button": "Change password",
        "reset_done": "Your password has changed. Sign in with the new one.",
        "mismatch": "The two passwords are not the same.", "length": "Use between 8 and 128 characters.",
        "missing": "This link is incomplete: open the whole link from the mail.",
        "signin_title": "Sign in", "email": "Email", "signin_password": "Password",
        "code": "Authenticator or recovery code", "signin_button": "Sign in",
        "forgot": "Forgot your password?", "no_account": "New here?", "sign_up": "Create an account",
        "errors": {"invalid_token": "This link is invalid, used or expired. Ask for a new one."},
    },
    es={
        "verify_title": "Confirma tu correo", "verify_intro": "Pulsa el botón para confirmar esta dirección.",
        "verify_button": "Confirmar mi correo", "verified": "Tu correo está confirmado. Puedes cerrar esta página.",
        "reset_title": "Elige una contraseña nueva",
        "reset_intro": "Mínimo 8 caracteres. Se cerrarán todas las sesiones de la cuenta.",
        "password": "Contraseña nueva", "confirm": "Repítela", "reset_button": "Cambiar contraseña",
        "reset_done": "Tu contraseña cambió. Inicia sesión con la nueva.",
        "mismatch": "Las dos contraseñas no coinciden.", "length": "Usa entre 8 y 128 caracteres.",
        "missing": "Este enlace está incompleto: abre el enlace completo del correo.",
        "signin_title": "Iniciar sesión", "email": "Correo", "signin_password": "Contraseña",
        "code": "Código del autenticador o de recuperación", "signin_button": "Entrar",
        "forgot": "¿Olvidaste la contraseña?", "no_account": "¿Eres nuevo?", "sign_up": "Crea una cuenta",
        "errors": {"invalid_token": "Este enlace no es válido, ya se usó o caducó. Pide uno nuevo."},
    },
)
