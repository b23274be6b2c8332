"""The API's resources besides the browser calls: stored credentials, mailboxes, phone numbers, webhooks."""

from __future__ import annotations

import urllib.parse
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from .answers import Session
from .jobs import NeedsInputCallback, ProgressCallback
from .transport import Transport

BrowserCall = Callable[[str, Dict[str, Any], Optional[str], Optional[int], bool, Optional[ProgressCallback], Optional[NeedsInputCallback]], Session]


def segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def keyed(idempotency_key: Optional[str]) -> Dict[str, str]:
    return {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}


class Credentials:
    """Stored credentials: metadata only (the secret never leaves the service), and verify for pending signups."""

    def __init__(self, transport: Transport, browser_call: BrowserCall) -> None:
        self._transport = transport
        self._browser_call = browser_call

    def list(self, before: Optional[str] = None, site: Optional[str] = None, username: Optional[str] = None) -> Dict[str, Any]:
        """One page, newest first by creation, of one `site` (an origin) or `username` when given:
        `{"credentials": [...], "next": <path> | None}` (the next page keeps the filters)."""
        query = {"before": before, "site": site, "username": username}
        return self._transport.request("GET", "/v1/credentials", query=query).json_object()

    def iter_all(self) -> Iterator[Dict[str, Any]]:
        """Every credential of the organization, page after page."""
        page = self.list()
        while True:
            yield from page["credentials"]
            if not page.get("next"):
                return
            page = self._transport.request("GET", page["next"]).json_object()

    def get(self, credential_id: str) -> Dict[str, Any]:
        return self._transport.request("GET", f"/v1/credentials/{segment(credential_id)}").json_object()

    def delete(self, credential_id: str) -> None:
        """Deletes the credential, its secret, its sessions (cached ones too) and its job records."""
        self._transport.request("DELETE", f"/v1/credentials/{segment(credential_id)}")

    def forget_device(self, credential_id: str) -> None:
        """Forgets the site's memory of the credential's browser: its next login is a new device's."""
        self._transport.request("DELETE", f"/v1/credentials/{segment(credential_id)}/device")

    def verify(
        self,
        credential_id: str,
        *,
        link: Optional[str] = None,
        code: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        wait: Optional[int] = None,
        respond_async: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        allow_handoff: Optional[bool] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
    ) -> Session:
        """Confirms the email of an account a signup left pending (with the `link` or `code` you received, or
        neither: what reached our inbox), then signs in; returns the session like refresh. With
        `allow_handoff`, a step only a person can do waits for them (`on_needs_input` hears each question)."""
        body: Dict[str, Any] = {}
        if link is not None:
            body["link"] = link
        if code is not None:
            body["code"] = code
        if allow_handoff is not None:
            body["allowHandoff"] = allow_handoff
        path = f"/v1/credentials/{segment(credential_id)}/verify"
        return self._browser_call(path, body, idempotency_key, wait, respond_async, on_progress, on_needs_input)

    def enrol_passkey(
        self,
        credential_id: str,
        *,
        settings_url: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        wait: Optional[int] = None,
        respond_async: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        allow_handoff: Optional[bool] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
    ) -> Session:
        """Adds a passkey to the credential's account: signs in with its stored secret, then adds one on the
        site's settings page (`settings_url`, or found by its links). Later `login_method="passkey"` logins and
        refreshes use it, sending no password. The session's `passkey` names it (`get(...)["methods"]` lists it
        too, also after a call that waited for its job)."""
        body: Dict[str, Any] = {}
        if settings_url is not None:
            body["settingsUrl"] = settings_url
        if allow_handoff is not None:
            body["allowHandoff"] = allow_handoff
        path = f"/v1/credentials/{segment(credential_id)}/passkeys"
        return self._browser_call(path, body, idempotency_key, wait, respond_async, on_progress, on_needs_input)

    def import_passkey(self, credential_id: str, passkey: Dict[str, Any], *, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Keeps a passkey you already hold for the credential, sealed as an enrolled one; no browser runs.
        `passkey` is the API's `import`: its fields (`credentialId`, `userHandle` base64url; `privateKey` PKCS#8
        as base64url DER or PEM, or a private JWK dict, ES256, EdDSA or RS256; `rpId` the credential's site;
        `signCount`), or `{"cxf": {...}}`, a Credential Exchange Format passkey credential or an item holding
        one. Answers `{"passkey": {...}, "credentialId": ...}`; later `login_method="passkey"` logins sign in
        with it. The same passkey (or another of the same account) again raises AuthsvcError `conflict`."""
        path = f"/v1/credentials/{segment(credential_id)}/passkeys"
        return self._transport.request("POST", path, body={"import": passkey}, headers=keyed(idempotency_key)).json_object()

    def delete_passkey(self, credential_id: str, passkey_id: str) -> None:
        """Forgets one of the credential's passkeys here; the site still lists it (remove it there too)."""
        self._transport.request("DELETE", f"/v1/credentials/{segment(credential_id)}/passkeys/{segment(passkey_id)}")

    def entry_link(
        self,
        domain: str,
        *,
        collection_id: Optional[str] = None,
        expires_in: Optional[int] = None,
        login_method: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Dict[str, Any]:
        """A link to a hosted page where the end user types their own credentials for the site. The service
        signs in once with them and stores the credential; `get_entry_link` (or the `credential.created`
        webhook) gives its id. You never see the password."""
        body = {k: v for k, v in {"domain": domain, "collectionId": collection_id, "expiresIn": expires_in, "login_method": login_method}.items() if v is not None}
        return self._transport.request("POST", "/v1/credentials/entry-links", body=body, headers=keyed(idempotency_key)).json_object()

    def get_entry_link(self, link_id: str) -> Dict[str, Any]:
        """An entry link's state: open, validating, needs_input, created (with credentialId), failed or expired."""
        return self._transport.request("GET", f"/v1/entry-links/{segment(link_id)}").json_object()


class Mailboxes:
    """Addresses on the service's mail domain whose codes and links logins and signups read."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, *, local_part: Optional[str] = None, label: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        body = {k: v for k, v in {"localPart": local_part, "label": label}.items() if v is not None}
        return self._transport.request("POST", "/v1/mailboxes", body=body, headers=keyed(idempotency_key)).json_object()

    def list(self) -> List[Dict[str, Any]]:
        return self._transport.request("GET", "/v1/mailboxes").json_list("mailboxes")

    def get(self, mailbox_id: str) -> Dict[str, Any]:
        return self._transport.request("GET", f"/v1/mailboxes/{segment(mailbox_id)}").json_object()

    def forwarding(self) -> Dict[str, Any]:
        """The organization's forwarding inbox (made on the first call), for mail forwarded from your own addresses."""
        return self._transport.request("GET", "/v1/mailboxes/forwarding").json_object()

    def messages(self, mailbox_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None, include_body: bool = False) -> Dict[str, Any]:
        """`{"messages": [...], "next": ...}`, newest first; the decrypted text and HTML only with include_body."""
        query = {"limit": limit, "offset": offset, "include": "body" if include_body else None}
        return self._transport.request("GET", f"/v1/mailboxes/{segment(mailbox_id)}/messages", query=query).json_object()

    def delete(self, mailbox_id: str) -> None:
        self._transport.request("DELETE", f"/v1/mailboxes/{segment(mailbox_id)}")


class PhoneNumbers:
    """Numbers the operator assigned to the organization, whose SMS codes `otp_sms` logins read."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list(self) -> List[Dict[str, Any]]:
        return self._transport.request("GET", "/v1/phone-numbers").json_list("phoneNumbers")


class Webhooks:
    """Endpoints that receive `session.refreshed`, `session.expired`, `credential.failed`, `job.needs_input` and `credential.created` (see verify_webhook)."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, url: str, *, events: Optional[Sequence[str]] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Registers `url`; the answer's `secret` (shown only here) signs every delivery."""
        body: Dict[str, Any] = {"url": url}
        if events is not None:
            body["events"] = list(events)
        return self._transport.request("POST", "/v1/webhooks", body=body, headers=keyed(idempotency_key)).json_object()

    def list(self) -> List[Dict[str, Any]]:
        return self._transport.request("GET", "/v1/webhooks").json_list("webhooks")

    def delete(self, webhook_id: str) -> None:
        self._transport.request("DELETE", f"/v1/webhooks/{segment(webhook_id)}")


class Proxies:
    """The organization's egress proxies: logins leave through them (`proxy`, `proxy_pool`), and each credential keeps its own."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, url: str, *, label: Optional[str] = None, region: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Adds the proxy at `url` (`http://user:pass@host:port` or `socks5://…`); its credentials are never shown again."""
        body: Dict[str, Any] = {"url": url}
        if label is not None:
            body["label"] = label
        if region is not None:
            body["region"] = region
        return self._transport.request("POST", "/v1/proxies", body=body, headers=keyed(idempotency_key)).json_object()

    def list(self) -> List[Dict[str, Any]]:
        return self._transport.request("GET", "/v1/proxies").json_list("proxies")

    def delete(self, proxy_id: str) -> None:
        self._transport.request("DELETE", f"/v1/proxies/{segment(proxy_id)}")
