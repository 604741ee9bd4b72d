import pytest
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlmodel import Session, create_engine, select

from appliance.core.actor import OrgActor
from appliance.core.errors import Forbidden
from appliance.core.tenancy import check_phone_number_allowed, only_allowed_phone_numbers


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
