// The organization's own resources the client manages beside its logins: mailboxes, phone numbers,
// webhooks and proxies (AuthClient's mailboxes, phoneNumbers, webhooks and proxies).
import { ROUTES } from "./routes";
import type { IdempotentOptions, RequestOptions, Transport } from "./transport";
import type {
  ProxyRequest,
  ProxyResource,
  CreatedWebhook,
  MailboxRequest,
  MailboxResource,
  MessagePage,
  PhoneNumberResource,
  WebhookRequest,
  WebhookResource,
} from "./types";

export class Mailboxes {
  constructor(private readonly transport: Transport) {}

  /** A new inbox of ours; its address is the account's email on the site. */
  async create(body: MailboxRequest = {}, options: IdempotentOptions = {}): Promise<MailboxResource> {
    return (await this.transport.send<MailboxResource>({ route: ROUTES.createMailbox, body, options })).body;
  }

  async list(options: RequestOptions = {}): Promise<MailboxResource[]> {
    return (await this.transport.send<{ mailboxes: MailboxResource[] }>({ route: ROUTES.listMailboxes, options })).body
      .mailboxes;
  }

  async get(id: string, options: RequestOptions = {}): Promise<MailboxResource> {
    return (await this.transport.send<MailboxResource>({ route: ROUTES.getMailbox, params: { id }, options })).body;
  }

  /** The organization's forwarding inbox, created on the first call. */
  async forwarding(options: RequestOptions = {}): Promise<MailboxResource> {
    return (await this.transport.send<MailboxResource>({ route: ROUTES.getForwardingMailbox, options })).body;
  }

  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.deleteMailbox, params: { id }, options });
  }

  /** Messages the mailbox received, newest first, with the code and link read from each. */
  async messages(
    id: string,
    query: { limit?: number; offset?: number; includeBody?: boolean } = {},
    options: RequestOptions = {},
  ): Promise<MessagePage> {
    const q = { limit: query.limit, offset: query.offset, include: query.includeBody ? "body" : undefined };
    return (
      await this.transport.send<MessagePage>({ route: ROUTES.listMailboxMessages, params: { id }, query: q, options })
    ).body;
  }
}

export class PhoneNumbers {
  constructor(private readonly transport: Transport) {}

  /** The numbers the operator assigned to the organization. */
  async list(options: RequestOptions = {}): Promise<PhoneNumberResource[]> {
    return (
      await this.transport.send<{ phoneNumbers: PhoneNumberResource[] }>({ route: ROUTES.listPhoneNumbers, options })
    ).body.phoneNumbers;
  }
}

export class Webhooks {
  constructor(private readonly transport: Transport) {}

  /** Registers an endpoint; the answer carries its signing secret, shown only here. */
  async create(body: WebhookRequest, options: IdempotentOptions = {}): Promise<CreatedWebhook> {
    return (await this.transport.send<CreatedWebhook>({ route: ROUTES.createWebhook, body, options })).body;
  }

  async list(options: RequestOptions = {}): Promise<WebhookResource[]> {
    return (await this.transport.send<{ webhooks: WebhookResource[] }>({ route: ROUTES.listWebhooks, options })).body
      .webhooks;
  }

  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.deleteWebhook, params: { id }, options });
  }
}

/** The organization's egress proxies: logins leave through them (`proxy`, `proxyPool`), and each credential keeps its own. */
export class Proxies {
  constructor(private readonly transport: Transport) {}

  /** Adds a proxy; its URL's credentials are stored encrypted and never shown again. */
  async create(body: ProxyRequest, options: IdempotentOptions = {}): Promise<ProxyResource> {
    return (await this.transport.send<ProxyResource>({ route: ROUTES.createProxy, body, options })).body;
  }

  async list(options: RequestOptions = {}): Promise<ProxyResource[]> {
    return (await this.transport.send<{ proxies: ProxyResource[] }>({ route: ROUTES.listProxies, options })).body
      .proxies;
  }

  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.deleteProxy, params: { id }, options });
  }
}
