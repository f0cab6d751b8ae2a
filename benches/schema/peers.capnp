# Cap'n Proto schema of the capnp peer in the criterion benches (issue 32): every
# data set but the feed (a framed stream of messages, not one message), modelled on
# the data sets' Rust models as `peers.fbs` is.
# Regenerate the Rust code (src/formats/generated/peers_capnp.rs) with
# `benches/schema/regenerate-capnp.sh`.
#
# Choices, where the model has something Cap'n Proto has not:
# - An `Option` of a number is an anonymous union of `absent :Void` and
#   `present :T` (its discriminant is checked when read: an unknown one is an
#   error). An `Option` of a string, bytes or a struct is a null pointer when
#   absent (`has_*`).
# - Enums are Cap'n Proto enums (16-bit; the model's values in the same order,
#   so ordinal = the model's discriminant). An enum value the schema does not
#   have is an error when read (`NotInSchema`).
# - Fixed-size byte arrays are integers: the log's `[u8; 4]` address a `UInt32`
#   and the feed's `[u8; 8]` symbol a `UInt64`, both little-endian (the model's
#   bytes in order), as the prost peer does.
# - Strings are `Text`, byte strings `Data`, `Vec<T>` a `List(T)` (`List(Bool)`
#   is a bit list).
# - Nested records (the model's structs) are structs, reached by a pointer:
#   Cap'n Proto has no inline structs.
# - A tagged union (`FeedMsg`) is a union of groups, so every element of the
#   `events` list is one struct sized for its largest member.

@0xee3751811fcfdae2;

# ---- R1: login ----

struct LoginRequest {
  username @0 :Text;
  password @1 :Text;
  mfaToken @2 :Text;       # absent: null
}

# ---- R2: order ----

struct Customer {
  id @0 :Int64;
  name @1 :Text;
  email @2 :Text;
}

struct LineItem {
  sku @0 :Text;
  name @1 :Text;
  quantity @2 :Int32;
  unitPrice @3 :Float64;
  discount @4 :Float64;
}

struct Order {
  id @0 :Int64;
  customer @1 :Customer;
  items @2 :List(LineItem);
  note @3 :Text;
}

# ---- R6: tick ----

enum Side {
  buy @0;
  sell @1;
}

struct Tick {
  sequence @0 :UInt64;
  timestampNs @1 :UInt64;
  symbol @2 :UInt64;       # the 8 bytes, little-endian
  bidPrice @3 :Int64;
  bidSize @4 :UInt32;
  askPrice @5 :Int64;
  askSize @6 :UInt32;
  side @7 :Side;
  flags @8 :UInt8;
}

# ---- log ----

struct LogEntry {
  address @0 :UInt32;      # the 4 octets, little-endian
  identity @1 :Text;
  userid @2 :Text;
  date @3 :Text;
  request @4 :Text;
  code @5 :UInt16;
  size @6 :UInt64;
}

struct LogBatch {
  entries @0 :List(LogEntry);
}

# ---- mesh (and game's positions) ----

struct Vec3 {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
}

struct Triangle {
  normal @0 :Vec3;
  v1 @1 :Vec3;
  v2 @2 :Vec3;
  v3 @3 :Vec3;
}

struct Mesh {
  triangles @0 :List(Triangle);
}

# ---- events: the feed's messages as one list of a union ----

struct Event {
  # Every kind starts with the same five fields, then its own.
  union {
    add :group {
      sequence @0 :UInt64;
      timestampNs @1 :UInt64;
      stockLocate @2 :UInt16;
      tracking @3 :UInt16;
      symbol @4 :UInt64;
      orderRef @5 :UInt64;
      side @6 :Side;
      shares @7 :UInt32;
      price @8 :Int64;
    }
    executed :group {
      sequence @9 :UInt64;
      timestampNs @10 :UInt64;
      stockLocate @11 :UInt16;
      tracking @12 :UInt16;
      symbol @13 :UInt64;
      orderRef @14 :UInt64;
      executedShares @15 :UInt32;
      matchNumber @16 :UInt64;
    }
    cancel :group {
      sequence @17 :UInt64;
      timestampNs @18 :UInt64;
      stockLocate @19 :UInt16;
      tracking @20 :UInt16;
      symbol @21 :UInt64;
      orderRef @22 :UInt64;
      cancelledShares @23 :UInt32;
    }
    delete :group {
      sequence @24 :UInt64;
      timestampNs @25 :UInt64;
      stockLocate @26 :UInt16;
      tracking @27 :UInt16;
      symbol @28 :UInt64;
      orderRef @29 :UInt64;
    }
    trade :group {
      sequence @30 :UInt64;
      timestampNs @31 :UInt64;
      stockLocate @32 :UInt16;
      tracking @33 :UInt16;
      symbol @34 :UInt64;
      orderRef @35 :UInt64;
      side @36 :Side;
      shares @37 :UInt32;
      price @38 :Int64;
      matchNumber @39 :UInt64;
    }
  }
}

struct Events {
  events @0 :List(Event);
}

# ---- player: a game's save file ----

enum PlayerClass {
  warrior @0;
  mage @1;
  rogue @2;
  ranger @3;
  cleric @4;
  druid @5;
}

enum Faction {
  alliance @0;
  horde @1;
  neutral @2;
}

enum Rarity {
  common @0;
  uncommon @1;
  rare @2;
  epic @3;
  legendary @4;
}

struct Position {
  zone @0 :UInt16;
  x @1 :Float32;
  y @2 :Float32;
  z @3 :Float32;
  yaw @4 :Float32;
}

struct Stats {
  strength @0 :UInt16;
  agility @1 :UInt16;
  intellect @2 :UInt16;
  stamina @3 :UInt16;
  armor @4 :Int32;
  maxHealth @5 :UInt32;
  maxMana @6 :UInt32;
  crit @7 :Float32;
  haste @8 :Float32;
}

struct Item {
  id @0 :UInt32;
  count @1 :UInt16;
  durability @2 :UInt8;
  rarity @3 :Rarity;
  bound @4 :Bool;
}

struct Quest {
  id @0 :UInt32;
  step @1 :UInt8;
  progress @2 :Float32;
  done @3 :Bool;
  expiresAt :union {
    absent @4 :Void;
    present @5 :Int64;
  }
}

struct Skill {
  id @0 :UInt16;
  rank @1 :UInt8;
  xp @2 :UInt32;
}

struct Guild {
  id @0 :UInt64;
  name @1 :Text;
  rank @2 :UInt8;
  motd @3 :Text;           # absent: null
}

struct Pet {
  species @0 :UInt16;
  level @1 :UInt8;
  name @2 :Text;           # absent: null
}

struct Player {
  id @0 :UInt64;
  name @1 :Text;
  class @2 :PlayerClass;
  faction @3 :Faction;
  level @4 :UInt8;
  experience @5 :UInt64;
  gold @6 :UInt32;
  gems :union {
    absent @7 :Void;
    present @8 :UInt32;
  }
  health @9 :UInt32;
  mana :union {
    absent @10 :Void;
    present @11 :UInt32;
  }
  karma @12 :Int16;
  luck @13 :Int8;
  deaths @14 :UInt16;
  pvpRating :union {
    absent @15 :Void;
    present @16 :UInt16;
  }
  createdAt @17 :Int64;
  lastLogin @18 :Int64;
  playTimeS @19 :UInt32;
  mutedUntil :union {
    absent @20 :Void;
    present @21 :Int64;
  }
  damageDealt @22 :Float64;
  scale @23 :Float32;
  hardcore @24 :Bool;
  online @25 :Bool;
  position @26 :Position;
  respawn @27 :Position;   # absent: null
  stats @28 :Stats;
  guild @29 :Guild;        # absent: null
  pet @30 :Pet;            # absent: null
  title @31 :Text;         # absent: null
  inventory @32 :List(Item);
  quests @33 :List(Quest);
  skills @34 :List(Skill);
  titles @35 :List(Text);
  friends @36 :List(Text);
  achievements @37 :List(UInt16);
}

struct Players {
  saveVersion @0 :UInt16;
  players @1 :List(Player);
}

# ---- game: a game-state stream ----

enum ContactKind {
  player @0;
  npc @1;
  projectile @2;
  vehicle @3;
  loot @4;
}

struct Contact {
  id @0 :UInt32;
  kind @1 :ContactKind;
  position @2 :Vec3;
  heading @3 :UInt16;
  team @4 :UInt8;
  health :union {
    absent @5 :Void;
    present @6 :UInt32;
  }
  shield :union {
    absent @7 :Void;
    present @8 :Float32;
  }
  velocity @9 :Vec3;       # absent: null
  target :union {
    absent @10 :Void;
    present @11 :UInt32;
  }
  buffs @12 :List(UInt16);
  cooldowns @13 :List(Float32);
  flags @14 :List(Bool);
}

struct Update {
  tick @0 :UInt64;
  serverTimeUs @1 :Int64;
  ack @2 :UInt32;
  contacts @3 :List(Contact);
  snapshot @4 :Data;       # absent: null
}

struct GameState {
  updates @0 :List(Update);
}
