import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import * as dnsPacket from "dns-packet";

/**
 * The fixture sites' DNS, as a mail receiver sees it: an authoritative server on a loopback UDP port that
 * answers TXT queries (the sites' DKIM keys, a forwarder's ARC key) and NXDOMAIN for any other name. mail-in
 * is pointed at it with MAIL_DNS_SERVERS, as an operator points it at a resolver of their own.
 */
export class SiteDns {
  private readonly txt = new Map<string, string[]>();

  private constructor(private readonly socket: Socket) {
    socket.on("message", (message, from) => this.answer(message, from));
  }

  static async start(host = "127.0.0.1"): Promise<SiteDns> {
    const socket = createSocket(host.includes(":") ? "udp6" : "udp4");
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, host, () => {
        socket.off("error", reject);
        resolve();
      });
    });
    return new SiteDns(socket);
  }

  /** `address:port`, the MAIL_DNS_SERVERS form. */
  get server(): string {
    const { address, port } = this.socket.address() as AddressInfo;
    return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
  }

  /** Publishes a TXT record (replacing the name's records). */
  setTxt(name: string, value: string): void {
    this.txt.set(normalize(name), [value]);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer, from: RemoteInfo): void {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // not DNS: dropped, as a server does
    }
    const question = query.questions?.[0];
    const records = question ? this.txt.get(normalize(question.name)) : undefined;
    const answers: dnsPacket.Answer[] =
      question && records && question.type === "TXT"
        ? records.map((value) => ({ type: "TXT", name: question.name, class: "IN", ttl: 60, data: chunks(value) }))
        : [];
    const response = dnsPacket.encode({
      id: query.id,
      type: "response",
      // Authoritative; NXDOMAIN (rcode 3) for a name it holds nothing for, NOERROR with no answer for another type.
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (records ? 0 : 3),
      questions: query.questions,
      answers,
    });
    this.socket.send(response, from.port, from.address);
  }
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** A TXT value as character-strings of at most 255 bytes (a 2048-bit DKIM key needs two). */
function chunks(value: string): Buffer[] {
  const bytes = Buffer.from(value);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255));
  return out;
}
