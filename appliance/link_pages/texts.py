from appliance.http.pages import Texts

TEXTS = Texts(
    "link_pages",
    en={"chat": "Chat on WhatsApp", "made_with": "Made with the business messaging appliance", "empty": "No links yet."},
    es={"chat": "Escríbenos por WhatsApp", "made_with": "Hecho con el sistema de mensajería del negocio", "empty": "Aún no hay enlaces."},
)
