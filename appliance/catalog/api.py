"""/organizations/{orgId}/catalog: products (goods and licenses), their license keys, and the push
to Meta's catalog. Selling is the orders' business: orders:read to read, orders:write to change."""

from flask.views import MethodView

from appliance.catalog import keys, schemas, service, sync
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("catalog", __name__, url_prefix="/organizations/<uuid:org_id>/catalog",
                description="The product catalog: goods and licenses, license keys, Meta's catalog")


@blp.route("/products")
class Products(MethodView):
    @blp.requires("orders:read")
    @blp.arguments(schemas.ProductArgsSchema, location="query")
    @blp.response(200, schemas.ProductPageSchema)
    def get(self, query, org_id):
        """Products by name"""
        return service.list_products(db_session(), actor=current_org_actor(), **query)

    @blp.requires("orders:write")
    @blp.arguments(schemas.ProductCreateSchema)
    @blp.response(201, schemas.ProductSchema)
    def post(self, body, org_id):
        """Add a product (409 retailer_id_taken)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/products/<uuid:product_id>")
class ProductById(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.ProductSchema)
    def get(self, org_id, product_id):
        """One product"""
        return service.access_product(db_session(), actor=current_org_actor(), product_id=str(product_id))

    @blp.requires("orders:write")
    @blp.arguments(schemas.ProductPatchSchema)
    @blp.response(200, schemas.ProductSchema)
    def patch(self, body, org_id, product_id):
        """Change what is named"""
        return service.do_update(db_session(), actor=current_org_actor(), product_id=str(product_id), **body)

    @blp.requires("orders:write")
    @blp.response(204)
    def delete(self, org_id, product_id):
        """Delete it, with its keys not given out (409 product_has_sales once keys were delivered)"""
        service.do_delete(db_session(), actor=current_org_actor(), product_id=str(product_id))


@blp.route("/products/<uuid:product_id>/license-keys")
class LicenseKeys(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.StockSchema)
    def get(self, org_id, product_id):
        """How many keys are left and were delivered (never the keys; 409 product_not_license)"""
        session = db_session()
        return keys.stock_of(session, keys.access_license(session, actor=current_org_actor(), product_id=str(product_id)))

    @blp.requires("orders:write")
    @blp.arguments(schemas.LicenseKeysAddSchema)
    @blp.response(201, schemas.KeysAddedSchema)
    def post(self, body, org_id, product_id):
        """Add keys to a LICENSE product's pool (sealed; one already there is counted, not added); an
        order waiting for keys is delivered at once"""
        return keys.do_add(db_session(), actor=current_org_actor(), product_id=str(product_id), **body)


@blp.route("/sync")
class Sync(MethodView):
    @blp.requires("orders:write")
    @blp.arguments(schemas.SyncArgsSchema)
    @blp.response(200, schemas.SyncSchema)
    def post(self, body, org_id):
        """Push every product to the Meta catalog of the business account (each product keeps Meta's
        answer: syncedAt, or syncError with its reason)"""
        return sync.check_sync(actor=current_org_actor(), **body)
