from marshmallow import fields, validate, validates_schema, ValidationError

from appliance.core.schema import ApiSchema, IsoDateTime, Text, WebAddress

PERIODS = ("UNICO", "MENSUAL", "ANUAL", "POR_HORA")
CURRENCY = validate.Regexp(r"^[A-Z]{3}$", error="An ISO 4217 code: MXN, COP, USD.")


class PriceSchema(ApiSchema):
    """PrecioDto: one price of a service (a size, a plan, an hour...)."""
    etiqueta = Text(required=True, min_length=1, max_length=100)
    monto = fields.Float(required=True, allow_nan=False, validate=validate.Range(0, 1_000_000_000))
    periodo = fields.String(load_default="UNICO", validate=validate.OneOf(PERIODS))
    stock = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(0, 1_000_000_000),
                           metadata={"description": "Units left; null: not counted"})


class ServiceSchema(ApiSchema):
    id = fields.String()
    categoria = fields.String()
    nombre = fields.String()
    descripcion = fields.String()
    notas = fields.String()
    moneda = fields.String()
    url_contratacion = fields.String(allow_none=True, data_key="urlContratacion")
    activo = fields.Boolean()
    mostrar_precio = fields.Boolean(data_key="mostrarPrecio")
    mostrar_sin_stock = fields.Boolean(data_key="mostrarSinStock")
    orden = fields.Integer()
    precios = fields.List(fields.Dict())
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ServiceUpdateSchema(ApiSchema):
    min_fields = 1
    categoria = Text(max_length=100)
    nombre = Text(min_length=1, max_length=200)
    descripcion = Text(max_length=4000, multiline=True)
    notas = Text(max_length=4000, multiline=True)
    moneda = fields.String(validate=CURRENCY, metadata={"description": "Default: the organization's currency"})
    url_contratacion = WebAddress(allow_none=True, data_key="urlContratacion")
    activo = fields.Boolean()
    mostrar_precio = fields.Boolean(data_key="mostrarPrecio")
    mostrar_sin_stock = fields.Boolean(data_key="mostrarSinStock")
    orden = fields.Integer(validate=validate.Range(-1_000_000, 1_000_000))
    precios = fields.List(fields.Nested(PriceSchema), validate=validate.Length(max=50))

    @validates_schema
    def _labels_unique(self, data, **kwargs):
        labels = [price["etiqueta"].casefold() for price in data.get("precios") or ()]
        if len(labels) != len(set(labels)):
            raise ValidationError({"precios": ["Each price needs its own label."]})


class ServiceCreateSchema(ServiceUpdateSchema):
    min_fields = 0
    nombre = Text(required=True, min_length=1, max_length=200)
