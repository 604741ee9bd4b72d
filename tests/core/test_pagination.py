import pytest
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlmodel import Session, create_engine, select

from appliance.core.errors import Invalid
from appliance.core.ids import new_id
from appliance.core.pagination import paginate


class Base(DeclarativeBase):  # its own metadata: the app's schema stays untouched
    pass


class Item(Base):
    __tablename__ = "pagination_test_items"
    id: Mapped[str] = mapped_column(primary_key=True)
    rank: Mapped[int]


@pytest.fixture
def session():
    engine = create_engine("sqlite://")
    Item.__table__.create(engine)
    with Session(engine) as session:
        yield session


def test_pages_cover_everything_once_despite_inserts(session):
    """Walking the pages while new rows arrive neither skips nor repeats old rows."""
    ids = [new_id() for _ in range(25)]
    session.add_all(Item(id=i, rank=n % 3) for n, i in enumerate(ids))
    session.commit()
    seen, cursor = [], None
    while True:
        page = paginate(session, select(Item), key=[Item.rank, Item.id], take=10, cursor=cursor)
        seen += [item.id for item in page.items]
        session.add(Item(id=new_id(), rank=99))  # newer rows sort first: never reached
        session.commit()
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sorted(seen) == sorted(ids) and len(seen) == 25


def test_bad_cursors_and_take_are_400(session):
    """A forged cursor or take out of 1..200 is Invalid, not a crash."""
    for cursor in ("!!!", "eyJ4IjoxfQ", "WzEsMiwzXQ"):
        with pytest.raises(Invalid):
            paginate(session, select(Item), key=[Item.rank, Item.id], cursor=cursor)
    for take in (0, 201):
        with pytest.raises(Invalid):
            paginate(session, select(Item), key=[Item.id], take=take)
