"""A retrieval evaluation set written for this project: the library of a bakery with a shop and
deliveries (Panadería La Espiga), eleven documents of different kinds (two of them distractors), and questions customers
would ask in Spanish and English. Each question names the words its answer must contain; the
last ones have no answer in the library (a good search answers nothing to them).

Used by tests/bench/eval_knowledge.py (recall@5 and MRR, the calibration of minSimilarity) and by
tests/knowledge/test_retrieval_quality.py (hybrid must beat both halves)."""

from __future__ import annotations

from tests.knowledge.samples import docx_bytes, pdf_bytes

PRICE_LIST_PAGES = [
    ["# Lista de precios 2026", "Todos los precios incluyen IVA.",
     "# Pan", "Barra de pan tradicional: 1,20 euros. Pan integral de centeno: 2,80 euros. "
     "Hogaza de masa madre de 1 kg: 4,50 euros. Pan sin gluten: 3,90 euros."],
    ["# Bollería", "Croissant de mantequilla: 1,50 euros. Napolitana de chocolate: 1,70 euros. "
     "Ensaimada grande: 9 euros."],
    ["# Tartas por encargo", "Tarta de chocolate para 8 personas: 28 euros. Tarta de queso: 24 euros. "
     "Tarta de boda de tres pisos: desde 180 euros. Las tartas personalizadas con foto cuestan 6 euros más."],
    ["# Gastos de envío", "El envío a domicilio cuesta 3,50 euros dentro de la ciudad. "
     "Los pedidos de más de 40 euros se envían gratis. Fuera de la ciudad el envío cuesta 7 euros."],
]

POLICY_BLOCKS = [
    "# Condiciones de la tienda",
    "## Devoluciones",
    "Los productos frescos no se pueden devolver. Los productos envasados se aceptan en un plazo de 14 días "
    "con el ticket de compra y sin abrir. El importe se devuelve por el mismo medio de pago.",
    "## Formas de pago",
    "Aceptamos efectivo, tarjeta de débito y crédito, Bizum y pago con el móvil. No aceptamos cheques.",
    "## Alérgenos",
    "Todos nuestros productos pueden contener trazas de frutos secos y sésamo. Elaboramos pan sin gluten "
    "en un obrador separado, pero no podemos garantizar la ausencia total de trazas.",
    "## Reclamaciones",
    "Si algo no ha ido bien, escríbanos a atencion@laespiga.example o pida la hoja de reclamaciones en la tienda. "
    "Respondemos en un máximo de 48 horas.",
]

FAQ_MD = """# Preguntas frecuentes

## ¿Cuál es el horario?
Abrimos de lunes a sábado de 7:30 a 20:30. Los domingos abrimos solo por la mañana, de 8:00 a 14:00.

## ¿Dónde están?
Estamos en la calle Mayor 12, junto a la plaza del mercado. La parada de autobús más cercana es la línea 4.

## ¿Hay aparcamiento?
Hay un parking público en la plaza del mercado; con una compra de más de 15 euros le sellamos una hora gratis.

## ¿Se pueden reservar tartas?
Sí. Las tartas se encargan con al menos 48 horas de antelación, por teléfono, WhatsApp o en la tienda.
Para las tartas de boda pedimos una señal del 30%.

## ¿Venden tarjetas regalo?
Sí, tenemos tarjetas regalo de 20, 50 y 100 euros, válidas durante un año.
"""

DELIVERY_TXT = """Zonas y horarios de reparto

Repartimos en toda la ciudad y en los pueblos a menos de 15 km.
El reparto de la mañana sale a las 9:00 y el de la tarde a las 17:00.
Los pedidos hechos antes de las 12:00 se entregan el mismo día por la tarde.

Si no hay nadie en casa, el repartidor llama por teléfono y espera cinco minutos.
Después el pedido vuelve a la tienda y se puede recoger hasta el cierre.

No repartimos los domingos ni los festivos.
"""

CATALOG_CSV = """codigo;producto;alergenos;precio
PAN-001;Barra tradicional;gluten;1,20
PAN-014;Hogaza de masa madre;gluten;4,50
PAN-027;Pan sin gluten;ninguno;3,90
BOL-103;Croissant de mantequilla;gluten, leche, huevo;1,50
BOL-118;Napolitana de chocolate;gluten, leche, soja;1,70
TAR-205;Tarta de queso;leche, huevo, gluten;24,00
TAR-230;Tarta vegana de zanahoria;gluten, frutos secos;26,00
GAL-310;Galletas de avena;gluten, avena;3,20
"""

HOLIDAYS_NOTE = ("Horario de Navidad", "Durante las fiestas de Navidad cambiamos el horario. "
                 "El 24 y el 31 de diciembre abrimos de 7:00 a 15:00. El 25 de diciembre y el 1 de enero cerramos. "
                 "El roscón de Reyes se encarga desde el 15 de diciembre y cuesta 18 euros el mediano.")

JOBS_NOTE = ("Trabaja con nosotros", "Buscamos panaderos y dependientes para el turno de noche y de fin de semana. "
             "Envíe su currículum a empleo@laespiga.example indicando el puesto.")

WORKSHOPS_HTML = b"""<html><head><title>Talleres | La Espiga</title></head><body>
<nav><a href="/">Inicio</a> <a href="/tienda">Tienda</a> <a href="/contacto">Contacto</a></nav>
<main><article>
<h1>Talleres de panader\xc3\xada para todos</h1>
<p>Cada s\xc3\xa1bado por la tarde organizamos un taller de pan de masa madre en nuestro obrador. El taller dura tres horas,
cuesta 35 euros por persona e incluye los materiales y el pan que cada uno hornea.</p>
<p>Tambi\xc3\xa9n hay talleres infantiles de galletas decoradas para ni\xc3\xb1os de 6 a 12 a\xc3\xb1os, el primer domingo de cada mes,
por 15 euros. Las plazas son limitadas a diez personas; se reservan en la tienda o por WhatsApp.</p>
<h2>Nuestra historia</h2>
<p>La Espiga abri\xc3\xb3 en 1987 como un peque\xc3\xb1o horno familiar. Hoy la lleva la tercera generaci\xc3\xb3n de la familia,
que sigue usando harinas de molinos locales.</p>
</article></main>
<footer>&copy; 2026 La Espiga. Aviso legal. Pol\xc3\xadtica de cookies.</footer>
</body></html>"""

WHOLESALE_EN_BLOCKS = [
    "# Wholesale terms for restaurants and cafés",
    "We supply bread and pastries to restaurants, hotels and cafés. The minimum order is 60 euros per delivery.",
    "## Ordering",
    "Orders for the next morning must reach us by 6 pm. Standing orders can be changed until 48 hours before delivery.",
    "## Invoices and payment",
    "Wholesale customers receive one invoice per month and pay by bank transfer within 30 days. "
    "Prices for businesses do not include VAT.",
    "## Discounts",
    "Businesses ordering more than 1,000 euros a month get a 10% discount on the whole order.",
]

# Distractors: the bakery's own recipes and oven log talk about the same bread, cakes, hours and
# euros as the customers' questions, without answering any of them.
RECIPES_BLOCKS = [
    "# Recetario interno del obrador",
    "## Barra tradicional",
    "Harina de trigo 1 kg, agua 650 ml, sal 20 g, levadura fresca 10 g. Amasar 12 minutos, primera fermentación "
    "de 90 minutos, formar las barras y hornear a 230 grados durante 22 minutos con vapor.",
    "## Hogaza de masa madre",
    "Harina panificable 800 g, harina integral 200 g, agua 720 ml, masa madre 200 g, sal 22 g. Autólisis de una hora, "
    "pliegues cada 30 minutos y fermentación en frío durante 14 horas. Hornear en cazuela a 250 grados.",
    "## Pan sin gluten",
    "Mezcla de harina de arroz y almidón de maíz 500 g, psyllium 20 g, agua 450 ml, levadura 8 g. Usar siempre "
    "los moldes marcados en verde y el horno pequeño del obrador separado.",
    "## Croissant",
    "Masa de harina de fuerza, leche, azúcar y levadura; empaste con 500 g de mantequilla por kilo de masa, "
    "tres vueltas sencillas con reposo en frío de 30 minutos. Hornear a 190 grados durante 18 minutos.",
    "## Tarta de queso",
    "Queso crema 1 kg, azúcar 300 g, huevos 6, nata 400 ml, harina 30 g. Hornear a 200 grados durante 45 minutos "
    "hasta que la superficie quede tostada y el centro tiemble. Enfriar una noche antes de cortar.",
    "## Tarta de chocolate",
    "Bizcocho de cacao en tres capas, ganache de chocolate negro al 70% con nata caliente y cobertura brillante. "
    "Montar la víspera y conservar en cámara a 4 grados.",
    "## Roscón de Reyes",
    "Masa enriquecida con agua de azahar, ralladura de naranja y limón; decorar con fruta confitada, almendra y "
    "azúcar humedecido. Esconder la figura y el haba antes de hornear a 180 grados.",
    "## Galletas de avena",
    "Copos de avena 300 g, mantequilla 150 g, azúcar moreno 120 g, huevo 1, harina 100 g. Bolitas de 30 g, "
    "hornear a 175 grados durante 12 minutos.",
    "## Limpieza del obrador",
    "Al cierre se limpian las mesas con agua caliente y detergente, se barre la harina y se vacían las bandejas. "
    "Los lunes se desmontan y limpian la amasadora y la laminadora.",
]

OVEN_LOG_CSV = "fecha;horno;temperatura;responsable;observaciones\n" + "\n".join(
    f"2026-{1 + day // 28:02d}-{1 + day % 28:02d};{'grande' if day % 2 else 'pequeño'};{200 + (day * 7) % 50};"
    f"{('Marta', 'Luis', 'Carmen', 'Jorge')[day % 4]};{('sin incidencias', 'puerta revisada', 'vapor ajustado', 'limpieza a fondo')[day % 4]}"
    for day in range(160))


def documents() -> list[dict]:
    """Each as the API takes it: kind 'file' (content, name), 'note' (title, content) or 'page'."""
    return [
        {"kind": "file", "name": "precios-2026.pdf", "content": pdf_bytes(PRICE_LIST_PAGES)},
        {"kind": "file", "name": "condiciones.docx", "content": docx_bytes(POLICY_BLOCKS)},
        {"kind": "file", "name": "preguntas-frecuentes.md", "content": FAQ_MD.encode()},
        {"kind": "file", "name": "reparto.txt", "content": DELIVERY_TXT.encode("latin-1")},
        {"kind": "file", "name": "catalogo.csv", "content": CATALOG_CSV.encode()},
        {"kind": "note", "title": HOLIDAYS_NOTE[0], "content": HOLIDAYS_NOTE[1]},
        {"kind": "note", "title": JOBS_NOTE[0], "content": JOBS_NOTE[1]},
        {"kind": "page", "name": "talleres.html", "content": WORKSHOPS_HTML},
        {"kind": "file", "name": "wholesale-terms.docx", "content": docx_bytes(WHOLESALE_EN_BLOCKS)},
        {"kind": "file", "name": "recetario.docx", "content": docx_bytes(RECIPES_BLOCKS)},
        {"kind": "file", "name": "registro-hornos.csv", "content": OVEN_LOG_CSV.encode()},
    ]


# (question, words the answering passage contains)
QUESTIONS_ES: list[tuple[str, str]] = [
    ("¿Cuánto cuesta el envío?", "3,50 euros"),
    ("cuanto cobran por enviar a domicilio", "3,50 euros"),
    ("¿El envío es gratis?", "se envían gratis"),
    ("¿Cuánto cuesta enviar fuera de la ciudad?", "7 euros"),
    ("¿Qué precio tiene la barra de pan?", "Barra de pan tradicional"),
    ("precio del pan sin gluten", "3,90"),
    ("¿Cuánto vale una tarta de chocolate?", "28 euros"),
    ("cuánto cuesta una tarta de boda", "180 euros"),
    ("¿Los precios llevan IVA?", "incluyen IVA"),
    ("¿Cuánto cuesta un croissant?", "Croissant de mantequilla"),
    ("¿Puedo devolver un producto?", "14 días"),
    ("quiero devolver unas galletas que compré", "14 días"),
    ("¿Cómo me devuelven el dinero?", "mismo medio de pago"),
    ("¿Puedo pagar con tarjeta?", "tarjeta de débito"),
    ("¿Aceptan Bizum?", "Bizum"),
    ("¿Aceptan cheques?", "No aceptamos cheques"),
    ("Soy alérgico a los frutos secos, ¿es seguro?", "frutos secos"),
    ("¿Tienen productos para celíacos?", "sin gluten"),
    ("¿Cómo pongo una reclamación?", "hoja de reclamaciones"),
    ("¿A qué hora abren?", "7:30"),
    ("¿Abren los domingos?", "domingos abrimos"),
    ("¿Dónde está la tienda?", "calle Mayor 12"),
    ("¿Qué autobús me deja cerca?", "línea 4"),
    ("¿Dónde puedo aparcar?", "parking público"),
    ("¿Con cuánta antelación encargo una tarta?", "48 horas"),
    ("¿Hay que pagar señal por la tarta de boda?", "señal del 30%"),
    ("¿Tienen tarjetas regalo?", "tarjetas regalo"),
    ("¿Hasta dónde reparten?", "15 km"),
    ("¿A qué hora sale el reparto?", "9:00"),
    ("si pido hoy a las 11, ¿me llega hoy?", "mismo día"),
    ("¿Qué pasa si no estoy en casa cuando llega el pedido?", "espera cinco minutos"),
    ("¿Reparten en domingo?", "No repartimos los domingos"),
    ("¿Qué alérgenos tiene la napolitana de chocolate?", "BOL-118"),
    ("BOL-103", "BOL-103"),
    ("¿Tienen tarta vegana?", "Tarta vegana"),
    ("¿Qué precio tienen las galletas de avena?", "GAL-310"),
    ("¿Qué horario tienen en Navidad?", "Navidad"),
    ("¿Abren el día de Navidad?", "25 de diciembre"),
    ("¿Cuánto cuesta el roscón de Reyes?", "18 euros"),
    ("¿Buscan personal?", "currículum"),
    ("¿Dónde envío mi currículum?", "empleo@laespiga.example"),
    ("¿Hacen talleres de pan?", "taller de pan de masa madre"),
    ("¿Cuánto cuesta el taller de masa madre?", "35 euros"),
    ("¿Tienen actividades para niños?", "talleres infantiles"),
    ("¿Desde cuándo existe la panadería?", "1987"),
    ("¿Cuánto es el pedido mínimo para restaurantes?", "minimum order"),
]
QUESTIONS_EN: list[tuple[str, str]] = [
    ("How much is delivery?", "3,50 euros"),
    ("Is shipping free over some amount?", "se envían gratis"),
    ("What are your opening hours?", "7:30"),
    ("Are you open on Sundays?", "domingos abrimos"),
    ("Where is the shop?", "calle Mayor 12"),
    ("Can I pay by card?", "tarjeta de débito"),
    ("Can I return a product?", "14 días"),
    ("Do you have gluten free bread?", "sin gluten"),
    ("How much does a cheesecake cost?", "Tarta de queso"),
    ("How far in advance should I order a cake?", "48 horas"),
    ("Do you sell gift cards?", "tarjetas regalo"),
    ("What is the minimum order for restaurants?", "minimum order"),
    ("When do I have to place tomorrow's order?", "6 pm"),
    ("How do wholesale customers pay?", "bank transfer"),
    ("Do you give discounts to businesses?", "10% discount"),
    ("Do business prices include VAT?", "do not include VAT"),
    ("Do you run bread making workshops?", "taller de pan de masa madre"),
    ("Are you hiring?", "currículum"),
    ("Are you open on Christmas day?", "25 de diciembre"),
]
QUESTIONS = QUESTIONS_ES + QUESTIONS_EN

# Questions the library cannot answer: a search should come back empty.
UNANSWERABLE: list[str] = [
    "¿Venden bicicletas eléctricas?",
    "¿Cuál es la contraseña del wifi?",
    "¿Hacen reparaciones de móviles?",
    "¿Quién ganó el partido de ayer?",
    "¿Tienen servicio de peluquería canina?",
    "Do you repair laptops?",
    "What is the weather tomorrow?",
    "¿Alquilan apartamentos en la playa?",
    "How do I renew my passport?",
    "¿Puedo llevar a mi perro al veterinario aquí?",
]
