"""The rich sends (/messages/product, /interactive, /flow, /carousel): simple bodies turned into the
network's `interactive` objects, then sent like any message (outbound.do_send checks them again).

Bodies the reference does not show, decided here (docs/api.md, "Rich messages"):
- ProductSectionDto `{title (<=24), productRetailerIds [1..30]}`; at most 10 sections, 30 products in all.
- ListSectionDto `{title? (<=24, required when several), rows: [{id, title (<=24), description? (<=72)}]}`;
  at most 10 rows in all.
- CarouselCardDto `{headerType: image|video, mediaId | mediaLink, bodyText? (<=160), displayText (<=20), url}`:
  each card an image or video with a link button (the network's `cta_url` cards).
"""

from __future__ import annotations

from appliance.messages.sending.compose import problem

MAX_PRODUCTS = 30


def _texts(args: dict, *, header: bool = True) -> dict:
    parts: dict = {}
    if header and args.get("header_text"):
        parts["header"] = {"type": "text", "text": args["header_text"]}
    if args.get("body_text"):
        parts["body"] = {"text": args["body_text"]}
    if args.get("footer_text"):
        parts["footer"] = {"text": args["footer_text"]}
    return parts


def product(args: dict) -> dict:
    """One product, a flat list, titled sections, or the whole catalog: exactly one of them."""
    given = [key for key in ("product_retailer_id", "products", "sections") if args.get(key)]
    if args.get("catalog_message"):
        given.append("catalog_message")
    if len(given) != 1:
        raise problem("productRetailerId", "Exactly one of productRetailerId, products, sections or catalogMessage.")
    kind = given[0]
    if kind == "product_retailer_id":
        return {"type": "product", **_texts(args, header=False),
                "action": {"catalog_id": args["catalog_id"], "product_retailer_id": args["product_retailer_id"]}}
    if kind == "catalog_message":
        _require(args, "body_text", "bodyText", "the catalog message")
        parameters = {}
        if args.get("thumbnail_product_retailer_id"):
            parameters["thumbnail_product_retailer_id"] = args["thumbnail_product_retailer_id"]
        return {"type": "catalog_message", **_texts(args, header=False),
                "action": {"name": "catalog_message", **({"parameters": parameters} if parameters else {})}}
    _require(args, "header_text", "headerText", "a product list")
    _require(args, "body_text", "bodyText", "a product list")
    if kind == "products":
        sections = [{"title": args["header_text"][:24], "product_items": [{"product_retailer_id": p} for p in args["products"]]}]
    else:
        sections = [{"title": s["title"], "product_items": [{"product_retailer_id": p} for p in s["product_retailer_ids"]]}
                    for s in args["sections"]]
    count = sum(len(s["product_items"]) for s in sections)
    if count > MAX_PRODUCTS:
        raise problem("sections", f"At most {MAX_PRODUCTS} products in all ({count} given).")
    return {"type": "product_list", **_texts(args), "action": {"catalog_id": args["catalog_id"], "sections": sections}}


def interactive(args: dict) -> dict:
    kind = args["kind"]
    _require(args, "body_text", "bodyText", f"a {kind} message")
    if kind == "list":
        _require(args, "button_text", "buttonText", "a list (the button that opens it)")
        if not args.get("sections"):
            raise problem("sections", "A list needs at least one section with rows.")
        sections = [{**({"title": s["title"]} if s.get("title") else {}),
                     "rows": [{"id": r["id"], "title": r["title"], **({"description": r["description"]} if r.get("description") else {})}
                              for r in s["rows"]]} for s in args["sections"]]
        return {"type": "list", **_texts(args), "action": {"button": args["button_text"], "sections": sections}}
    if kind == "cta_url":
        _require(args, "display_text", "displayText", "a link button")
        _require(args, "url", "url", "a link button")
        return {"type": "cta_url", **_texts(args),
                "action": {"name": "cta_url", "parameters": {"display_text": args["display_text"], "url": args["url"]}}}
    if kind == "location_request":
        return {"type": "location_request_message", "body": {"text": args["body_text"]}, "action": {"name": "send_location"}}
    # request_contact_info: the network has no such type; a reply button asking the customer to
    # share their contact card, whose answer (the button reply or a contacts message) comes inbound.
    title = args.get("button_text") or "Share contact"
    return {"type": "button", **_texts(args),
            "action": {"buttons": [{"type": "reply", "reply": {"id": "request_contact_info", "title": title}}]}}


def flow(args: dict, *, network_flow_id: str) -> dict:
    parameters = {"flow_message_version": "3", "flow_token": str(args.get("flow_token") or args["flow_id"]),
                  "flow_id": network_flow_id, "flow_cta": args["cta_text"], "flow_action": args["flow_action"]}
    if args["flow_action"] == "navigate":
        parameters["flow_action_payload"] = {"screen": args["screen"], **({"data": args["data"]} if args.get("data") else {})}
    elif args.get("data"):
        parameters["flow_action_payload"] = {"data": args["data"]}
    return {"type": "flow", **_texts(args), "action": {"name": "flow", "parameters": parameters}}


def carousel(args: dict) -> dict:
    cards = []
    for index, card in enumerate(args["cards"]):
        kind = card["header_type"]
        media = {"id": card["media_id"]} if card.get("media_id") else {"link": card["media_link"]}
        item = {"card_index": index, "type": "cta_url", "header": {"type": kind, kind: media},
                "action": {"name": "cta_url", "parameters": {"display_text": card["display_text"], "url": card["url"]}}}
        if card.get("body_text"):
            item["body"] = {"text": card["body_text"]}
        cards.append(item)
    return {"type": "carousel", "body": {"text": args["body_text"]}, "action": {"cards": cards}}


def _require(args: dict, key: str, field: str, what: str) -> None:
    if not args.get(key):
        raise problem(field, f"Required for {what}.")
