import type { CreateTicket } from './creates-in-flight';

/**
 * One create's place among the creates on its way on the whole account, whoever sends them (workers on
 * several machines share one account). CreatesInFlight knows only this process's creates; a charge
 * measured as the balance's fall around a create is that create's own only when no create of any process
 * on the account fell in the same window.
 */
export interface AccountEntry {
  /** Nothing else was on its way on the account when it entered (with a lease: nothing else goes until it leaves). */
  readonly aloneAtStart: boolean;
  /** No other create entered on the account since this one did (asked once the balance was read after it). */
  undisturbed(): Promise<boolean>;
  /** It is answered (or failed): it stops counting as on its way, and its lease goes. Calling again does nothing. */
  leave(): void;
}

/**
 * The record of creates on their way on an account, shared by every process that sends on it. A create
 * whose charge is to be measured asks for the account's lease: it enters once nothing else is on its
 * way there, and the others wait until it leaves. A record that cannot be reached answers an entry that
 * is not alone, so nothing is measured beside creates it cannot see.
 */
export interface AccountCreates {
  /** `account`: a name of the account that is the same in every process serving it and shows no secret. */
  enter(account: string, lease: boolean): Promise<AccountEntry>;
}

/**
 * What stands for a run's id in an account's proof (client/account-proof.ts) where the account itself is
 * meant, whatever the run: the same name of the account in every process with these credentials.
 */
export const ACCOUNT_WIDE = 'the whole account';

/** This process is the only one sending on its account: what CreatesInFlight sees is the whole account. */
export const THIS_PROCESS_ONLY: AccountEntry = {
  aloneAtStart: true,
  undisturbed: async () => true,
  leave: () => undefined,
};

/** The account's record of creates and the name a connection's account has there (null: it has none). */
export interface SharedAccount {
  creates: AccountCreates;
  name(connectionId: string): Promise<string | null>;
}

/** An entry that sees nothing of the account: nothing measured beside it is kept. */
const UNSEEN: AccountEntry = { aloneAtStart: false, undisturbed: async () => false, leave: () => undefined };

/**
 * Enters a create admitted on its connection in this process on its whole account too (with the lease
 * when it goes alone). Without a shared record this process is the whole account, and nothing is awaited.
 */
export async function enterAccount(
  ticket: CreateTicket,
  connectionId: string,
  shared: SharedAccount | undefined,
): Promise<CreateTicket> {
  if (!shared) return ticket;
  let entry = UNSEEN;
  try {
    // A connection without credentials names no account: its creates are its own to this process only.
    const name = await shared.name(connectionId);
    if (name !== null) entry = await shared.creates.enter(name, ticket.alone);
  } catch {
    // Its create still goes (a failure here says nothing of the service); only its measurement is lost.
  }
  return onAccount(ticket, entry);
}

/** A create's ticket on its connection in this process, joined with its entry on the whole account. */
export function onAccount(ticket: CreateTicket, entry: AccountEntry): CreateTicket {
  return {
    alone: ticket.alone,
    aloneAtStart: ticket.aloneAtStart && entry.aloneAtStart,
    undisturbed: async () => (await ticket.undisturbed()) && (await entry.undisturbed()),
    release: () => {
      // Left first: a create of this process let in next asks the account on the same connection, after it.
      entry.leave();
      ticket.release();
    },
  };
}
