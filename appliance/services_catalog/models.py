from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class CatalogService(SQLModel, table=True):
    """One service (or product) and its prices. Prices are a small list kept whole (`precios`, as
    the API shapes them): they are read and written with their service, never alone."""

    __tablename__ = "catalog_services"
    __table_args__ = (Index("ix_catalog_services_org_order", "organization_id", "orden", "nombre"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    categoria: str = Field(default="", max_length=100)
    nombre: str = Field(max_length=200)
    descripcion: str = ""
    notas: str = ""
    moneda: str = Field(max_length=3)
    url_contratacion: str | None = Field(default=None, max_length=2000)
    activo: bool = True
    mostrar_precio: bool = True
    mostrar_sin_stock: bool = False
    orden: int = 0
    precios: list = Field(default_factory=list, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
