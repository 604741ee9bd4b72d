import pytest
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlmodel import Session, create_engine, select

from appliance.core.actor import OrgActor
from appliance.core.errors import Forbidden
from appliance.core.tenancy import NumberScope, check_phone_number_allowed, only_allowed_phone_numbers


class Base(DeclarativeBase):
    pass


class Record(Base):
    __tablename__ = "tenancy_test_records"
    id: Mapped[int] = mapped_column(primary_key=True)
    phone_number_id: Mapped[str]


def _actor(numbers=()):
    return OrgActor(user_id=None, kind="api_key", organization_id="org", membership_id=None, role_key=None,
                    permissions=frozenset(), phone_number_pks=tuple(numbers))


def test_sends_outside_the_allowed_numbers_are_403():
    """A restricted key may use its numbers only; an unrestricted one any."""
    check_phone_number_allowed(_actor(["a"]), "a")
    check_phone_number_allowed(_actor(), "z")
    with pytest.raises(Forbidden) as refused:
        check_phone_number_allowed(_actor(["a"]), "b")
    assert refused.value.code == "phone_number_not_allowed"


def test_listings_are_filtered_to_the_allowed_numbers():
    """The shared filter keeps only the allowed numbers' rows, and everything when unrestricted."""
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all([Record(phone_number_id=n) for n in ("a", "b", "c")])
        session.commit()
        restricted = session.exec(only_allowed_phone_numbers(select(Record), Record.phone_number_id, _actor(["a", "c"])))
        assert sorted(r.phone_number_id for r in restricted) == ["a", "c"]
        assert len(session.exec(only_allowed_phone_numbers(select(Record), Record.phone_number_id, _actor())).all()) == 3


def test_a_number_scope_reads_what_concerns_it_and_changes_only_what_is_all_its_own():
    """Issue 44: a record for some numbers (none: every number) is read when one of them is the
    actor's, and made or changed only when all are; an account only when all its numbers are."""
    kept = NumberScope(numbers=frozenset({"a"}), accounts=frozenset({"x"}), whole_accounts=frozenset())
    assert kept.reaches("a") and not kept.reaches("b")
    assert kept.concerns(["a", "b"]) and kept.concerns([]) and not kept.concerns(["b"])
    assert kept.covers(["a"]) and not kept.covers(["a", "b"]) and not kept.covers([])
    assert kept.reaches_account("x") and not kept.covers_account("x")
    for numbers, outside in ((["a", "b"], "b"), ([], None)):
        with pytest.raises(Forbidden) as refused:
            kept.check_covers(numbers)
        assert refused.value.code == "phone_number_not_allowed"
        assert refused.value.extra["phoneNumberId"] == outside
    everything = NumberScope()
    assert not everything.restricted and everything.covers([]) and everything.covers_account(None)
    everything.check_covers([])
