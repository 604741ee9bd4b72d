import pytest

from appliance.core import clock
from tests.problems import assert_problem


def test_signup_returns_user_and_tokens_and_mails_a_verification_link(api, mailbox):
    """Sign-up answers 201 with the user and a token pair, and mails a verification link."""
    data = api.signup(email="  Ana@Example.COM ")
    assert data["user"]["email"] == "ana@example.com"
    assert data["user"]["emailVerified"] is False and data["user"]["twoFactorEnabled"] is False
    assert data["tokens"]["expiresIn"] == 900
    mail = mailbox.last_to("ana@example.com")
    assert "http://appliance.test/verify-email?token=" in mail.get_content()


def test_signup_in_spanish_sends_the_mail_in_spanish(api, mailbox):
    """The verification mail follows the account's language."""
    api.signup(locale="es")
    assert mailbox.last_to("ana@example.com")["Subject"] == "Confirma tu correo electrónico"


def test_signup_with_a_taken_email_is_409(api):
    """A second account with the same email (any case) is refused with 409 email_taken."""
    api.signup()
    response = api.post("/auth/signup", {"email": "ANA@example.com", "password": "another password", "name": "X"})
    assert_problem(response, 409, "email_taken")


def test_signup_validates_every_field(api):
    """Bad email, short password, empty name and unknown fields each get a field error."""
    response = api.post("/auth/signup", {"email": "not-an-email", "password": "short", "name": "", "role": "admin"})
    assert response.status_code == 400
    assert set(response.json["errors"]) == {"email", "password", "name", "role"}


def test_signup_refuses_control_characters_and_overlong_names(api):
    """Names with control characters or over 100 characters are refused; unicode is kept."""
    for name in ("Ana\x00", "Ana\u0007", "a" * 101, "Ana\nBob"):
        response = api.post("/auth/signup", {"email": "a@example.com", "password": "long enough", "name": name})
        assert response.status_code == 400, name
        assert "name" in response.json["errors"]
    assert api.signup(email="b@example.com", name="Añá 李 🚀")["user"]["name"] == "Añá 李 🚀"


def test_login_answers_the_same_for_unknown_email_and_wrong_password(api):
    """Nothing in the answer tells whether the account exists."""
    api.signup()
    unknown = api.login(email="nobody@example.com", status=401)
    wrong = api.login(password="wrong password!", status=401)
    assert unknown["code"] == wrong["code"] == "invalid_credentials"
    assert unknown["detail"] == wrong["detail"]


def test_login_returns_user_and_tokens(api):
    """A correct password signs in and the access token opens /users/me."""
    api.signup()
    data = api.login()
    me = api.get("/users/me", token=data["tokens"]["accessToken"])
    assert me.status_code == 200 and me.json["data"]["email"] == "ana@example.com"


def test_failed_logins_lock_the_guesser_not_the_owner(api):
    """Issue 17, finding 10: five wrong passwords from anywhere locked the account for 15 minutes.
    Now five from one address lock that address for that account; the owner elsewhere signs in."""
    api.signup()

    def login(password, ip):
        return api.client.post("/auth/login", json={"email": "ana@example.com", "password": password},
                               environ_base={"REMOTE_ADDR": ip})

    for _ in range(5):
        assert login("wrong password!", "203.0.113.7").status_code == 401
    locked = login("correct horse battery", "203.0.113.7")
    assert_problem(locked, 429, "too_many_requests")
    assert 1 <= int(locked.headers["Retry-After"]) <= 900
    assert login("correct horse battery", "10.9.9.9").status_code == 200  # the owner, from the office
    clock.advance(901)
    assert login("correct horse battery", "203.0.113.7").status_code == 200


def test_guessing_spread_over_many_addresses_locks_the_account_for_a_day(api, settings):
    api.signup()
    daily = settings.throttle_account_daily_failures
    for n in range(daily):
        ip = f"198.51.{n // 4}.{n % 4 + 1}"  # four tries per address: under the per-address limit
        assert api.client.post("/auth/login", json={"email": "ana@example.com", "password": "wrong password!"},
                               environ_base={"REMOTE_ADDR": ip}).status_code == 401
    fresh = api.client.post("/auth/login", json={"email": "ana@example.com", "password": "correct horse battery"},
                            environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert_problem(fresh, 429, "too_many_requests")
    clock.advance(24 * 3600 + 1)
    assert api.client.post("/auth/login", json={"email": "ana@example.com", "password": "correct horse battery"},
                           environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 200


def test_failed_logins_are_throttled_per_ip(api):
    """Twenty failures from one address lock that address, whatever account it tries."""
    for n in range(20):
        api.login(email=f"user{n}@example.com", status=401)
    assert api.login(email="someone@example.com", status=429)["code"] == "too_many_requests"
    other_ip = api.client.post("/auth/login", json={"email": "x@example.com", "password": "whatever1"},
                               environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert other_ip.status_code == 401


def test_a_successful_login_clears_the_account_counter(api):
    """Four failures, then a success, then four more failures do not lock the account."""
    api.signup()
    for _ in range(4):
        api.login(password="wrong password!", status=401)
    api.login()
    for _ in range(4):
        api.login(password="wrong password!", status=401)
    api.login()


def test_signup_limit_per_ip_when_configured(settings, tmp_path):
    """APPLIANCE_SIGNUP_LIMIT_PER_HOUR caps sign-ups per address; off by default."""
    from appliance.app import create_app
    client = create_app(settings.replace(signup_limit_per_hour=2), queue_immediate=True).test_client()
    codes = [client.post("/auth/signup", json={"email": f"u{n}@example.com", "password": "long enough",
                                               "name": "U"}).status_code for n in range(3)]
    assert codes == [201, 201, 429]


@pytest.mark.real_password_cost
def test_passwords_are_stored_as_argon2id_at_owasps_floor_and_cheaper_ones_are_upgraded(api):
    """A new password is hashed with argon2id (t=2, m=19 MiB, p=1); a hash of a lower cost still
    signs in, and is replaced by one at the product's cost."""
    from sqlmodel import select

    from appliance.core import crypto, runtime
    from appliance.users.models import User

    api.signup()
    with runtime.get().db.unit_of_work(write=True) as session:
        user = session.exec(select(User)).one()
        assert user.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
        crypto.set_password_cost(time_cost=1, memory_cost=8)
        user.password_hash = crypto.hash_password("correct horse battery")
        crypto.set_password_cost(**crypto.PASSWORD_COST)
    api.login()
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.exec(select(User)).one().password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")


def test_password_hashes_run_on_their_own_two_threads_whoever_signs_in():
    """argon2id's 19 MiB stays with the malloc arena of the thread that hashed (core/crypto.py): hashes
    from many request threads run on the password threads alone, and answer as before."""
    import threading

    from appliance.core import crypto

    real, seen = crypto._hasher, set()

    class Recording:
        def hash(self, password):
            seen.add(threading.current_thread().name)
            return real.hash(password)

        def verify(self, password_hash, password):
            seen.add(threading.current_thread().name)
            return real.verify(password_hash, password)

    answers = []

    def sign_in(n: int) -> None:
        stored = crypto.hash_password(f"password {n}")
        answers.append((crypto.verify_password(stored, f"password {n}"), crypto.verify_password(stored, "wrong"),
                        crypto.verify_password(None, "anything")))

    crypto._hasher = Recording()
    try:
        requests = [threading.Thread(target=sign_in, args=(n,)) for n in range(8)]
        for request in requests:
            request.start()
        for request in requests:
            request.join()
    finally:
        crypto._hasher = real
    assert answers == [(True, False, False)] * 8
    assert 0 < len(seen) <= crypto.PASSWORD_THREADS and all(name.startswith("passwords") for name in seen), seen
