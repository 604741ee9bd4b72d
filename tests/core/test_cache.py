"""The commit-invalidated cache: a committed change to a watched model empties it at once, a value
read before such a change is not stored after it, entries expire and the size is bounded."""



from appliance.core import runtime
from appliance.core.cache import CommitInvalidatedCache
from appliance.organizations.models import Organization


def test_a_committed_change_to_a_watched_model_empties_it(api):
    cache = CommitInvalidatedCache("test", watched=(Organization,))
    cache.put("k", "v", generation=cache.generation)
    assert cache.get("k") == "v"
    token = api.signup(email="c@example.com")["tokens"]["accessToken"]
    org = api.post("/organizations", {"name": "Cache", "slug": "cache", "billingEmail": "c@c.test"}, token=token)
    assert org.status_code == 201
    assert cache.get("k") is None  # the new organization was a change
    cache.put("k", "v", generation=cache.generation)
    with runtime.get().db.unit_of_work(write=True) as session:
        session.get(Organization, org.json["data"]["id"]).name = "Cache 2"
    assert cache.get("k") is None


def test_a_value_read_before_a_change_is_not_stored_after_it():
    cache = CommitInvalidatedCache("test", watched=(Organization,))
    generation = cache.generation
    cache.clear()  # a change commits while the value was being read
    cache.put("k", "stale", generation=generation)
    assert cache.get("k") is None


def test_entries_expire_and_the_oldest_go_first():
    now = [100.0]
    cache = CommitInvalidatedCache("test", watched=(Organization,), ttl_seconds=0.05, max_entries=2,
                                   monotonic=lambda: now[0])
    for key in ("a", "b", "c"):
        cache.put(key, key, generation=cache.generation)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (None, "b", "c")
    now[0] += 0.06
    assert cache.get("b") is None
