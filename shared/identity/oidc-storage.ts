/**
 * Storage of the identity provider's state (oidc-provider "adapters").
 *
 * oidc-provider keeps sessions, interactions, grants, authorization codes and refresh tokens
 * through an adapter per model. Here they live in the project's single DynamoDB table:
 *
 * | item | pk | sk |
 * |---|---|---|
 * | a model instance | `REALM#{realm}#OIDC#{model}` | its id |
 * | Session by uid (`findByUid`) | `REALM#{realm}#OIDC#Session#UID` | uid |
 * | DeviceCode by user code (`findByUserCode`) | `REALM#{realm}#OIDC#DeviceCode#USERCODE` | user code |
 * | tokens of a grant (`revokeByGrantId`) | `REALM#{realm}#OIDC#{model}#GRANT` | `{grantId}#{id}` |
 *
 * Pointer items carry `id` (the model instance's id) and the same `expires_at` as what they
 * point to. Every item has `entity: 'oidc:{model}'` (the outbox stream consumer skips it) and,
 * when the model has a lifetime, `expires_at` in epoch seconds for the table's TTL. DynamoDB
 * deletes expired items late (DynamoDB Local never), so every read drops expired items itself.
 * The payload is stored as a JSON string in `payload` (oidc-provider payloads are JSON by
 * contract); `consume()` sets a separate `consumed` attribute that `find()` merges back.
 *
 * Pointers are written only where oidc-provider looks them up: uid for Session (the only model
 * read by `findByUid`), userCode for DeviceCode (the only model read by `findByUserCode`; the
 * device flow is disabled today), grantId for the token models that `revokeByGrantId` is
 * called on. Interaction also carries a grantId, but oidc-provider never revokes interactions
 * by grant, so it gets no pointer.
 *
 * The `Client` model is never stored: clients come from the IdentityDirectory
 * (`withDirectoryClients`).
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../data/client.ts';
import { isUnavailable, storable } from '../data/table.ts';
import type { ClientRecord, IdentityDirectory } from './identity-directory.ts';

/** What oidc-provider hands to and expects from an adapter: a JSON object per model instance. */
export interface AdapterPayload {
  [key: string]: unknown;
  uid?: string;
  userCode?: string;
  grantId?: string;
  consumed?: number;
}

/** oidc-provider's adapter interface (one instance per model name). */
export interface Adapter {
  /** Insert or replace the instance `id`; `expiresIn` seconds from now it may be dropped. */
  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
  /** The instance, or undefined when unknown or expired. */
  find(id: string): Promise<AdapterPayload | undefined>;
  /** The Session whose `uid` is this. */
  findByUid(uid: string): Promise<AdapterPayload | undefined>;
  /** The DeviceCode whose `userCode` is this. */
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
  /** Mark the instance consumed (codes, rotated refresh tokens): `find` then returns `consumed`. */
  consume(id: string): Promise<void>;
  /** Delete the instance and its lookup items. */
  destroy(id: string): Promise<void>;
  /** Delete every instance of this model issued under the grant. */
  revokeByGrantId(grantId: string): Promise<void>;
}

/** Per realm, oidc-provider's `adapter` option (a factory taking the model name). */
export type AdapterFactory = (realm: string) => (modelName: string) => Adapter;

/** Adapter factory over the single DynamoDB table (`dynamo()`, `tableName()`). */
export function oidcAdapterFactory(realm: string): (modelName: string) => Adapter {
  return modelAdapters(dynamoItemStore(), realm);
}

/**
 * The adapters over another item store (tests keep one in memory). One store serves every
 * realm, keyed like the table.
 */
export function itemStoreAdapterFactory(store: ItemStore): AdapterFactory {
  return (realm) => modelAdapters(store, realm);
}

/**
 * Wrap an adapter factory so the `Client` model reads the IdentityDirectory instead of storage.
 * Clients are read on every client authentication and never written by the provider
 * (dynamic registration is off).
 */
export function withDirectoryClients(
  adapters: (modelName: string) => unknown,
  directory: IdentityDirectory,
  realm: string,
): (modelName: string) => unknown {
  return (modelName) =>
    modelName === 'Client' ? directoryClientAdapter(directory, realm) : adapters(modelName);
}

/** oidc-provider client metadata of a directory client. */
export function clientMetadata(record: ClientRecord): AdapterPayload {
  const interactive = record.redirectUris.length > 0;
  return {
    client_id: record.clientId,
    client_secret: record.clientSecret,
    grant_types: interactive
      ? ['client_credentials', 'authorization_code', 'refresh_token']
      : ['client_credentials'],
    redirect_uris: [...record.redirectUris],
    // As Keycloak's "+": a browser logout may return to any of the client's redirect URIs.
    post_logout_redirect_uris: [...record.redirectUris],
    response_types: interactive ? ['code'] : [],
    // client_secret_post is accepted as well: oidc-provider treats the two secret methods alike
    // as long as both are in the provider's `clientAuthMethods`.
    token_endpoint_auth_method: 'client_secret_basic',
    // Extra client metadata (declared in the provider's `extraClientMetadata.properties`),
    // read back when access tokens are formatted.
    workspace_id: record.workspaceId,
    principal_id: record.principalId,
  };
}

function directoryClientAdapter(directory: IdentityDirectory, realm: string): Adapter {
  const readOnly = async (): Promise<never> => {
    throw new Error('OIDC clients are managed through the IdentityDirectory, not by the provider');
  };
  return {
    async find(clientId) {
      const record = await directory.findClient(realm, clientId);
      // Every client is confidential: a client without secret cannot authenticate at all.
      if (!record?.clientSecret) return undefined;
      return clientMetadata(record);
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Adapter logic over a small item store (DynamoDB here; a test may bring its own).             */

/** An item as the adapters store it: a model instance or a pointer to one. */
export interface StoredItem {
  pk: string;
  sk: string;
  entity: string;
  expires_at?: number;
  /** Model instances: the payload as JSON. */
  payload?: string;
  /** Model instances: when `consume()` was called, epoch seconds. */
  consumed?: number;
  /** Pointer items: the id of the model instance. */
  id?: string;
}

/**
 * The storage the adapters need: five operations on items keyed like the table. The table
 * implements it here; a test may hand another to `itemStoreAdapterFactory`.
 */
export interface ItemStore {
  /** The item, expired or not. */
  get(pk: string, sk: string): Promise<StoredItem | undefined>;
  /** Write the item; returns the item it replaced. */
  put(item: StoredItem): Promise<StoredItem | undefined>;
  /** Delete the item; returns what was deleted. */
  delete(pk: string, sk: string): Promise<StoredItem | undefined>;
  /** Set `consumed` on an existing item; no-op when the item does not exist. */
  markConsumed(pk: string, sk: string, at: number): Promise<void>;
  /** Items of the partition whose sort key starts with `prefix`. */
  query(pk: string, prefix: string): Promise<StoredItem[]>;
}

/** Models that oidc-provider revokes by grant id (see its `revoke` helper). */
const grantable = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

const nowSeconds = () => Math.floor(Date.now() / 1000);

const isLive = (item: StoredItem | undefined): item is StoredItem =>
  item !== undefined && (item.expires_at === undefined || item.expires_at > nowSeconds());

function modelAdapters(store: ItemStore, realm: string): (modelName: string) => Adapter {
  return (modelName) => {
    if (modelName === 'Client') {
      throw new Error('the Client model is not stored: wrap the adapter factory with withDirectoryClients()');
    }
    return new ItemStoreAdapter(store, realm, modelName);
  };
}

class ItemStoreAdapter implements Adapter {
  readonly #store: ItemStore;
  readonly #model: string;
  readonly #pk: string;
  readonly #entity: string;

  constructor(store: ItemStore, realm: string, model: string) {
    this.#store = store;
    this.#model = model;
    this.#pk = `REALM#${realm}#OIDC#${model}`;
    this.#entity = `oidc:${model}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? nowSeconds() + expiresIn : undefined;
    const previous = await this.#store.put({
      pk: this.#pk,
      sk: id,
      entity: this.#entity,
      payload: JSON.stringify(payload),
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    });
    const pointers = this.#pointers(id, payload);
    const current = new Set(pointers.map((pointer) => `${pointer.pk}\n${pointer.sk}`));
    const stale = previous?.payload
      ? this.#pointers(id, parse(previous.payload)).filter(
          (pointer) => !current.has(`${pointer.pk}\n${pointer.sk}`),
        )
      : [];
    await Promise.all([
      ...pointers.map((pointer) =>
        this.#store.put({
          ...pointer,
          entity: this.#entity,
          id,
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        }),
      ),
      ...stale.map((pointer) => this.#store.delete(pointer.pk, pointer.sk)),
    ]);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const item = await this.#store.get(this.#pk, id);
    if (!isLive(item) || item.payload === undefined) return undefined;
    const payload = parse(item.payload);
    if (item.consumed !== undefined) payload.consumed = item.consumed;
    return payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const payload = await this.#findByPointer(`${this.#pk}#UID`, uid);
    return payload?.uid === uid ? payload : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const payload = await this.#findByPointer(`${this.#pk}#USERCODE`, userCode);
    return payload?.userCode === userCode ? payload : undefined;
  }

  async consume(id: string): Promise<void> {
    await this.#store.markConsumed(this.#pk, id, nowSeconds());
  }

  async destroy(id: string): Promise<void> {
    const removed = await this.#store.delete(this.#pk, id);
    if (!removed?.payload) return;
    await Promise.all(
      this.#pointers(id, parse(removed.payload)).map((pointer) => this.#store.delete(pointer.pk, pointer.sk)),
    );
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!grantable.has(this.#model)) return;
    const grantPk = `${this.#pk}#GRANT`;
    const members = await this.#store.query(grantPk, `${grantId}#`);
    await Promise.all(
      members.map(async (member) => {
        if (member.id !== undefined) await this.destroy(member.id);
        // destroy() removes the pointer when the token still existed; this covers the rest.
        await this.#store.delete(grantPk, member.sk);
      }),
    );
  }

  async #findByPointer(pk: string, sk: string): Promise<AdapterPayload | undefined> {
    const pointer = await this.#store.get(pk, sk);
    if (!isLive(pointer) || pointer.id === undefined) return undefined;
    return this.find(pointer.id);
  }

  #pointers(id: string, payload: AdapterPayload): Array<{ pk: string; sk: string }> {
    const pointers: Array<{ pk: string; sk: string }> = [];
    if (this.#model === 'Session' && typeof payload.uid === 'string') {
      pointers.push({ pk: `${this.#pk}#UID`, sk: payload.uid });
    }
    if (this.#model === 'DeviceCode' && typeof payload.userCode === 'string') {
      pointers.push({ pk: `${this.#pk}#USERCODE`, sk: payload.userCode });
    }
    if (grantable.has(this.#model) && typeof payload.grantId === 'string') {
      pointers.push({ pk: `${this.#pk}#GRANT`, sk: `${payload.grantId}#${id}` });
    }
    return pointers;
  }
}

function parse(json: string): AdapterPayload {
  return JSON.parse(json) as AdapterPayload;
}

/* ------------------------------------------------------------------------------------------ */
/* Item stores.                                                                                */

function dynamoItemStore(): ItemStore {
  return unavailableAs503(rawDynamoItemStore());
}

function rawDynamoItemStore(): ItemStore {
  // dynamo() and tableName() are resolved per call: the local stack configures them late.
  return {
    async get(pk, sk) {
      // Token values come from clients: one longer than a key may be names nothing stored.
      if (!storable({ pk, sk })) return undefined;
      const { Item } = await dynamo().send(
        new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }),
      );
      return Item as StoredItem | undefined;
    },
    async put(item) {
      const { Attributes } = await dynamo().send(
        new PutCommand({ TableName: tableName(), Item: item, ReturnValues: 'ALL_OLD' }),
      );
      return Attributes as StoredItem | undefined;
    },
    async delete(pk, sk) {
      if (!storable({ pk, sk })) return undefined;
      const { Attributes } = await dynamo().send(
        new DeleteCommand({ TableName: tableName(), Key: { pk, sk }, ReturnValues: 'ALL_OLD' }),
      );
      return Attributes as StoredItem | undefined;
    },
    async markConsumed(pk, sk, at) {
      try {
        await dynamo().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk, sk },
            // CONSUMED is a DynamoDB reserved word.
            UpdateExpression: 'SET #consumed = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#consumed': 'consumed' },
            ExpressionAttributeValues: { ':at': at },
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    },
    async query(pk, prefix) {
      const items: StoredItem[] = [];
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const page: QueryCommandOutput = await dynamo().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        items.push(...((page.Items ?? []) as StoredItem[]));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return items;
    },
  };
}

/**
 * An outage of the table answers 503 `temporarily_unavailable` (with Retry-After, see
 * identity-server.ts), not oidc-provider's generic 500 `server_error`: oidc-provider renders an
 * error's `statusCode` and, when `expose` is set, its message as the OAuth error code.
 */
export class IdentityStoreUnavailable extends Error {
  readonly statusCode = 503;
  readonly status = 503;
  readonly expose = true;
  readonly error = 'temporarily_unavailable';
  readonly error_description = 'The identity provider cannot reach its store; try again shortly.';

  constructor(cause: unknown) {
    super('temporarily_unavailable', { cause });
    this.name = 'IdentityStoreUnavailable';
  }
}

function unavailableAs503(store: ItemStore): ItemStore {
  const guard =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await operation(...args);
      } catch (error) {
        throw isUnavailable(error) ? new IdentityStoreUnavailable(error) : error;
      }
    };
  return {
    get: guard(store.get),
    put: guard(store.put),
    delete: guard(store.delete),
    markConsumed: guard(store.markConsumed),
    query: guard(store.query),
  };
}
