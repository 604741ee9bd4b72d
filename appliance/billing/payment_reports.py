"""Payment reports: an owner says they paid by bank transfer (amount, bank, reference, when, and
the receipt if they have it); an installation administrator approves it, and the paying wallet
is credited once (source PAYMENT_REPORT, the report's id as reference), or rejects it with a
reason. Either way the person who reported it gets a mail, and the Billing page shows the outcome."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlmodel import Session, select

from appliance.billing import collection, money, wallet
from appliance.billing.models import PaymentReport
from appliance.core import clock, pagination, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, NotFound, TooLarge
from appliance.core.files import Upload, picture_or_pdf_type, write_atomically
from appliance.installation import public_address
from appliance.mail import service as mail_service
from appliance.messages.media_store import upload_path
from appliance.messages.models import UploadedMedia
from appliance.organizations.models import Organization
from appliance.users.models import User

PENDING, APPROVED, REJECTED = "PENDING_REVIEW", "APPROVED", "REJECTED"
STATUSES = (PENDING, APPROVED, REJECTED)
RECEIPT_MAX_BYTES = 5 * 1024 * 1024
# A receipt is not counted against the organization's storage: a full one must still be able to pay.


@dataclass(frozen=True)
class Receipt:
    path: Path
    mime_type: str
    filename: str | None


def receipt_path(organization_id: str, report_id: str) -> Path:
    return runtime.get().settings.data_dir / "billing" / "receipts" / organization_id / report_id


def _check_receipt(receipt: Upload) -> str:
    if not receipt.size:
        raise Invalid("The receipt file is empty.", code="file_missing", errors={"receipt": ["Empty."]})
    if receipt.size > RECEIPT_MAX_BYTES:
        raise TooLarge(f"A receipt may be at most 5 MB; this one is {receipt.size // 1024} KB.",
                       code="receipt_too_large", limitBytes=RECEIPT_MAX_BYTES)
    mime_type = picture_or_pdf_type(receipt.head(16))
    if mime_type is None:
        raise Invalid("Attach the receipt as a JPG, PNG or WEBP picture, or a PDF.", code="unsupported_file_type",
                      errors={"receipt": ["Not a picture or a PDF."]})
    return mime_type


def check_report(session: Session, *, actor: OrgActor, amount, bank: str, reference: str, paid_at: datetime,
                 currency: str | None = None, receipt_media_id: str | None = None,
                 receipt: Upload | None = None) -> PaymentReport:
    """`receipt_media_id`: a file uploaded with POST /media (the API's way); `receipt`: the file
    itself (the Billing page's), kept with the report."""
    organization_id = actor.organization_id
    wallet_currency = wallet.currency_of(session, organization_id)
    if currency is not None and currency != wallet_currency:
        raise Invalid(f"The wallet is in {wallet_currency}; report the amount in it.",
                      errors={"currency": [f"{wallet_currency}."]})
    amount_minor = money.parse_amount(amount, wallet_currency)
    now = clock.now()
    if paid_at > now + timedelta(minutes=5):
        raise Invalid("paidAt is in the future.", errors={"paidAt": ["Not after now."]})
    if receipt_media_id is not None and session.exec(select(UploadedMedia.id).where(
            UploadedMedia.id == receipt_media_id, UploadedMedia.organization_id == organization_id)).first() is None:
        raise Invalid("No uploaded file of this organization has this id.", errors={"receiptMediaId": ["Unknown."]})
    receipt_type = _check_receipt(receipt) if receipt is not None else None
    duplicate = session.exec(select(PaymentReport.id).where(
        PaymentReport.organization_id == organization_id, PaymentReport.bank == bank.strip(),
        PaymentReport.reference == reference.strip(), PaymentReport.status != REJECTED)).first()
    if duplicate:
        raise Conflict("This transfer (bank and reference) was already reported.", code="payment_report_duplicate",
                       reportId=duplicate)
    report = PaymentReport(organization_id=organization_id, amount_minor=amount_minor, currency=wallet_currency,
                           bank=bank.strip(), reference=reference.strip(), paid_at=paid_at,
                           receipt_media_id=receipt_media_id, reported_by=actor.user_id, created_at=now)
    if receipt is not None:  # the file whole in its place before the record that names it
        report.receipt_file_type, report.receipt_file_name = receipt_type, (receipt.filename or "")[:255] or None
        write_atomically(receipt_path(organization_id, report.id), receipt)
    session.add(report)
    session.flush()
    return report


def receipt_of(session: Session, *, report_id: str) -> Receipt:
    """A report's receipt, for the administrators reviewing it: the file attached on the page, or
    the copy of the uploaded media the API named."""
    report = session.get(PaymentReport, report_id)
    if report is None:
        raise NotFound("No payment report with this id.", code="payment_report_not_found")
    if report.receipt_file_type and receipt_path(report.organization_id, report.id).exists():
        return Receipt(receipt_path(report.organization_id, report.id), report.receipt_file_type,
                       report.receipt_file_name)
    media = session.get(UploadedMedia, report.receipt_media_id) if report.receipt_media_id else None
    if media is None or not upload_path(media.organization_id, media.id).exists():
        raise NotFound("This report has no receipt.", code="receipt_not_found")
    return Receipt(upload_path(media.organization_id, media.id), media.mime_type, media.filename)


def list_reports(session: Session, *, actor: OrgActor, take: int = 50, cursor: str | None = None) -> pagination.Page:
    query = select(PaymentReport).where(PaymentReport.organization_id == actor.organization_id)
    return pagination.paginate(session, query, key=[PaymentReport.created_at, PaymentReport.id], take=take,
                               cursor=cursor)


def access_report(session: Session, *, actor: OrgActor, report_id: str) -> PaymentReport:
    return tenancy.access_in_org(session, PaymentReport, report_id, actor, what="payment report",
                                 code="payment_report_not_found")


def list_for_review(session: Session, *, status: str | None = PENDING, take: int = 50,
                    cursor: str | None = None) -> pagination.Page:
    """The installation's reports (its administrators'), oldest first among the pending."""
    query = select(PaymentReport)
    if status:
        query = query.where(PaymentReport.status == status)
    return pagination.paginate(session, query, key=[PaymentReport.created_at, PaymentReport.id], take=take,
                               cursor=cursor, descending=status != PENDING)


def _pending(session: Session, report_id: str) -> PaymentReport:
    report = session.get(PaymentReport, report_id)
    if report is None:
        raise NotFound("No payment report with this id.", code="payment_report_not_found")
    if report.status != PENDING:
        raise Conflict(f"This report was already {report.status.lower()}.", code="payment_report_reviewed",
                       reportStatus=report.status)
    return report


def do_approve(session: Session, *, admin_id: str, report_id: str) -> PaymentReport:
    """Credit the paying wallet once, and tell the person who reported it."""
    report = _pending(session, report_id)
    organization = session.get(Organization, report.organization_id)
    wallet.do_move(session, wallet_id=wallet.payer_id(session, organization.id), amount_minor=report.amount_minor,
                   currency=report.currency, source=wallet.PAYMENT_REPORT, reference=report.id,
                   description=f"Transfer {report.bank} {report.reference}", for_organization_id=organization.id,
                   by=admin_id)
    _reviewed(session, report, admin_id, APPROVED)
    collection.do_settle_wallet(session, wallet.payer_id(session, organization.id))  # what it owes, paid now
    _tell(session, report, organization, "payment_report_approved")
    return report


def do_reject(session: Session, *, admin_id: str, report_id: str, reason: str) -> PaymentReport:
    report = _pending(session, report_id)
    report.rejection_reason = reason.strip()
    _reviewed(session, report, admin_id, REJECTED)
    _tell(session, report, session.get(Organization, report.organization_id), "payment_report_rejected")
    return report


def _reviewed(session: Session, report: PaymentReport, admin_id: str, status: str) -> None:
    report.status, report.reviewed_by, report.reviewed_at = status, admin_id, clock.now()
    session.add(report)
    session.flush()


def _tell(session: Session, report: PaymentReport, organization: Organization, kind: str) -> None:
    person = session.get(User, report.reported_by) or session.get(User, organization.created_by)
    mail_service.do_queue_mail(session, to=person.email, kind=kind, locale=person.locale, name=person.name,
                               organization=organization.name, amount=money.text(report.amount_minor, report.currency),
                               currency=report.currency, bank=report.bank, reference=report.reference,
                               reason=report.rejection_reason or "",
                               link=f"{public_address.base_url()}/console/{organization.id}/billing")
