//! `player`: a game's save file, 500 player records of 34 fields each, the
//! case of a wide record with many optional parts: optional numbers, strings
//! and nested records, C-like enums, nested fixed-size records (position,
//! stats), small lists of small records (inventory, quests, skills), lists of
//! short strings (titles, friends) and a list of numbers (achievements).
//!
//! Per format: wiremsg and rkyv encode the model as derived
//! (`derived_codecs!` in the parent module); FlatBuffers as `Players {
//! players: [Player] }` (`schema/peers.fbs`: options as `= null` scalars and
//! absent fields, the fixed-size records without an `Option` as vectors of
//! structs, `Quest` a table since it holds one); capnp as the same shape
//! (`schema/peers.capnp`: options of numbers as unions `absent`/`present`, the
//! others as null pointers, nested records as structs behind pointers);
//! postcard and JSON through serde. No prost: the peers of these two data sets
//! are rkyv, FlatBuffers, capnp and the serde baselines. Metrics: `encode`,
//! `access`, `read`, `read_some`, `update` (not FlatBuffers nor capnp), their
//! unchecked twins (not capnp), and `decode`.
//!
//! `read_some` (and `read_some_unchecked`) loads every player's `id`, `level`
//! and `health` (a server's roster check), skipping the strings, options and
//! lists. `update` (and `update_unchecked`) stores every player's `health`,
//! `online` and `last_login` in place (a shutdown pass that logs everyone out:
//! a number, a `bool` and an `i64` of the player's own fields).
//! `read_lazy` and `read_some_lazy` are `read` and `read_some` through
//! wiremsg's on-demand view: each field checked as it is read, `position`
//! and `stats` nested on-demand views, the lists on-demand lists; the
//! options (`respawn`, `guild`, `pet`) are read whole, as their kind is.
//!
//! What was awkward to write for wiremsg, against the plain Rust a game would
//! have written:
//!
//! - `achievements` would be a `BTreeSet<u16>`; wiremsg refuses sets, so it is
//!   a `Vec<u16>` the generator keeps sorted and free of duplicates (nothing
//!   checks that on the wire).
//! - The save file's format number would be a field named `version`; the
//!   views use that name themselves, so it is `save_version`.
//! - The enums derive `WireEnum`, not `WireMsg`, and must be `Copy`;
//!   `#[repr(u8)]` was already there.
//! - Not in the model, but the next thing a save file holds: bag slots with
//!   gaps, `Vec<Option<Item>>`, are refused ("lists of arrays or options");
//!   they would need a one-field wrapper struct per slot.

// rkyv's derives on the enums make helper types without `Debug`.
#![allow(missing_debug_implementations)]

use crate::format::Valid;
use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, Vector, WIPOffset};
use rkyv::munge::munge;
use rkyv::vec::ArchivedVec;
use wiremsg::{WireEnum, WireMsg};

use super::mesh::plus_zero;
use super::{
    Codec, CodecVisitor, Dataset, Rng, derived_codecs, fb_access_methods, fb_root, fold_some, ids,
    read_methods, read_some_methods, rkyv_root, rkyv_root_mut, try_fold_list, try_fold_some,
    visit_formats, wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{
    Capnp, capnp_methods, capnp_opt, capnp_set_opt, from_enum, message as capnp_message, text,
    to_enum,
};
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;

/// The derives every type of the data set has, the enums' with `Copy`.
macro_rules! record {
    ($(#[$attr:meta])* $vis:vis struct $($rest:tt)*) => {
        $(#[$attr])*
        #[derive(
            Debug,
            Clone,
            PartialEq,
            serde::Serialize,
            serde::Deserialize,
            rkyv::Archive,
            rkyv::Serialize,
            rkyv::Deserialize,
            wiremsg::WireMsg,
        )]
        #[rkyv(derive(Debug))]
        $vis struct $($rest)*
    };
    ($(#[$attr:meta])* $vis:vis enum $($rest:tt)*) => {
        $(#[$attr])*
        #[derive(
            Debug,
            Clone,
            Copy,
            PartialEq,
            Eq,
            serde::Serialize,
            serde::Deserialize,
            rkyv::Archive,
            rkyv::Serialize,
            rkyv::Deserialize,
            wiremsg::WireEnum,
        )]
        #[rkyv(derive(Debug))]
        #[repr(u8)]
        $vis enum $($rest)*
    };
}

record! {
    /// A player's class.
    pub enum Class {
        /// Melee, no mana.
        Warrior = 0,
        /// Caster.
        Mage = 1,
        /// Melee, no mana.
        Rogue = 2,
        /// Ranged.
        Ranger = 3,
        /// Healer.
        Cleric = 4,
        /// Shape-shifter.
        Druid = 5,
    }
}

record! {
    /// The side a player is on.
    pub enum Faction {
        /// One side.
        Alliance = 0,
        /// The other.
        Horde = 1,
        /// Neither.
        Neutral = 2,
    }
}

record! {
    /// An item's rarity.
    pub enum Rarity {
        /// Grey.
        Common = 0,
        /// Green.
        Uncommon = 1,
        /// Blue.
        Rare = 2,
        /// Purple.
        Epic = 3,
        /// Orange.
        Legendary = 4,
    }
}

record! {
    /// Where a player stands: a zone and coordinates in it.
    #[derive(Copy)]
    pub struct Position {
        /// Zone id.
        pub zone: u16,
        /// East.
        pub x: f32,
        /// North.
        pub y: f32,
        /// Up.
        pub z: f32,
        /// Facing, degrees.
        pub yaw: f32,
    }
}

record! {
    /// A player's attributes.
    #[derive(Copy)]
    pub struct Stats {
        /// Strength.
        pub strength: u16,
        /// Agility.
        pub agility: u16,
        /// Intellect.
        pub intellect: u16,
        /// Stamina.
        pub stamina: u16,
        /// Armor (debuffs can make it negative).
        pub armor: i32,
        /// Maximum health.
        pub max_health: u32,
        /// Maximum mana (0 for classes without).
        pub max_mana: u32,
        /// Critical-hit chance, 0 to 1.
        pub crit: f32,
        /// Haste multiplier.
        pub haste: f32,
    }
}

record! {
    /// One inventory stack.
    #[derive(Copy)]
    pub struct Item {
        /// Item id.
        pub id: u32,
        /// Stack size.
        pub count: u16,
        /// Durability, percent.
        pub durability: u8,
        /// Rarity.
        pub rarity: Rarity,
        /// Bound to the player (cannot be traded).
        pub bound: bool,
    }
}

record! {
    /// A quest in the player's log.
    #[derive(Copy)]
    pub struct Quest {
        /// Quest id.
        pub id: u32,
        /// Current step.
        pub step: u8,
        /// Progress in the step, 0 to 1.
        pub progress: f32,
        /// Finished, not handed in.
        pub done: bool,
        /// Unix time the quest fails at, for timed quests.
        pub expires_at: Option<i64>,
    }
}

record! {
    /// A learned skill.
    #[derive(Copy)]
    pub struct Skill {
        /// Skill id.
        pub id: u16,
        /// Rank learned.
        pub rank: u8,
        /// Experience towards the next rank.
        pub xp: u32,
    }
}

record! {
    /// The player's guild membership.
    pub struct Guild {
        /// Guild id.
        pub id: u64,
        /// Guild name.
        pub name: String,
        /// The player's rank in it (0 is the leader).
        pub rank: u8,
        /// Message of the day, if one is set.
        pub motd: Option<String>,
    }
}

record! {
    /// A companion pet.
    pub struct Pet {
        /// Species id.
        pub species: u16,
        /// Level.
        pub level: u8,
        /// The name the player gave it, if any.
        pub name: Option<String>,
    }
}

record! {
    /// One player's saved state.
    pub struct Player {
        /// Account-wide player id.
        pub id: u64,
        /// Character name, 3–16 bytes.
        pub name: String,
        /// Class.
        pub class: Class,
        /// Faction.
        pub faction: Faction,
        /// Level, 1–60.
        pub level: u8,
        /// Total experience.
        pub experience: u64,
        /// Gold.
        pub gold: u32,
        /// Premium currency, for players who ever bought some.
        pub gems: Option<u32>,
        /// Current health.
        pub health: u32,
        /// Current mana, for classes that have it.
        pub mana: Option<u32>,
        /// Reputation, can be negative.
        pub karma: i16,
        /// Luck modifier.
        pub luck: i8,
        /// Deaths.
        pub deaths: u16,
        /// Arena rating, for players who played a rated match.
        pub pvp_rating: Option<u16>,
        /// Unix time of creation.
        pub created_at: i64,
        /// Unix time of the last login.
        pub last_login: i64,
        /// Seconds played.
        pub play_time_s: u32,
        /// Unix time a chat mute ends, if muted.
        pub muted_until: Option<i64>,
        /// Lifetime damage dealt.
        pub damage_dealt: f64,
        /// Model scale.
        pub scale: f32,
        /// One life only.
        pub hardcore: bool,
        /// Logged in when the save was written.
        pub online: bool,
        /// Where the player is.
        pub position: Position,
        /// The bound respawn point, if one was set.
        pub respawn: Option<Position>,
        /// Attributes.
        pub stats: Stats,
        /// Guild membership.
        pub guild: Option<Guild>,
        /// Companion pet.
        pub pet: Option<Pet>,
        /// The title shown with the name.
        pub title: Option<String>,
        /// Inventory stacks, 0–20.
        pub inventory: Vec<Item>,
        /// Quest log, 0–10.
        pub quests: Vec<Quest>,
        /// Learned skills, 0–12.
        pub skills: Vec<Skill>,
        /// Titles earned, 0–8 of 5–20 bytes.
        pub titles: Vec<String>,
        /// Friends' names, 0–8 of 5–20 bytes.
        pub friends: Vec<String>,
        /// Achievement ids earned, sorted, no duplicates (a set; see the
        /// module docs).
        pub achievements: Vec<u16>,
    }
}

record! {
    /// The data set: a save file.
    pub struct Players {
        /// The save file's format number.
        pub save_version: u16,
        /// The players, by id.
        pub players: Vec<Player>,
    }
}

// ---- generation ----

const SYLLABLES: [&str; 16] = [
    "ka", "ri", "thor", "el", "va", "dun", "mor", "sy", "gal", "an", "dre", "os", "lin", "bra",
    "zek", "u",
];
const TITLES: [&str; 12] = [
    "the Bold",
    "Dragonslayer",
    "of the North",
    "Champion",
    "the Patient",
    "Grand Marshal",
    "Explorer",
    "the Undying",
    "Loremaster",
    "Battlemage",
    "Guardian",
    "the Insane",
];
const GUILD_WORDS: [&str; 10] = [
    "Iron", "Order", "Silver", "Hand", "Night", "Watch", "Crimson", "Tide", "Last", "Light",
];
const MOTDS: [&str; 4] = [
    "Raid tonight at 20:00, bring potions",
    "Guild bank is open to officers only this week",
    "Welcome to all new members! Read the rules in the hall",
    "Weekly dues are 50 gold, pay the treasurer",
];
const CLASSES: [Class; 6] = [
    Class::Warrior,
    Class::Mage,
    Class::Rogue,
    Class::Ranger,
    Class::Cleric,
    Class::Druid,
];
const FACTIONS: [Faction; 3] = [Faction::Alliance, Faction::Horde, Faction::Neutral];
const RARITIES: [Rarity; 10] = [
    Rarity::Common,
    Rarity::Common,
    Rarity::Common,
    Rarity::Common,
    Rarity::Uncommon,
    Rarity::Uncommon,
    Rarity::Uncommon,
    Rarity::Rare,
    Rarity::Rare,
    Rarity::Epic,
];

/// A name of syllables, `min..=max` bytes, capitalised.
fn name(rng: &mut Rng, min: usize, max: usize) -> String {
    let mut s = String::new();
    while s.len() < min {
        s.push_str(rng.pick::<&str>(&SYLLABLES));
    }
    while s.len() < max && rng.percent(40) {
        s.push_str(rng.pick::<&str>(&SYLLABLES));
    }
    s.truncate(max);
    s[..1].to_ascii_uppercase() + &s[1..]
}

/// A title of 5–20 bytes.
fn title(rng: &mut Rng) -> String {
    rng.pick(&TITLES).to_string()
}

fn position(rng: &mut Rng) -> Position {
    Position {
        zone: rng.range(1, 200) as u16,
        x: plus_zero(rng.f32(-5000.0, 5000.0)),
        y: plus_zero(rng.f32(-5000.0, 5000.0)),
        z: plus_zero(rng.f32(-200.0, 800.0)),
        yaw: rng.f32(0.0, 360.0),
    }
}

fn player(rng: &mut Rng, index: usize) -> Player {
    let class = *rng.pick(&CLASSES);
    let level = rng.range(1, 60) as u8;
    let caster = !matches!(class, Class::Warrior | Class::Rogue);
    let created_at = 1_600_000_000 + rng.below(150_000_000) as i64;
    let stats = Stats {
        strength: rng.range(5, 400) as u16,
        agility: rng.range(5, 400) as u16,
        intellect: rng.range(5, 400) as u16,
        stamina: rng.range(5, 400) as u16,
        armor: rng.range(0, 12_000) as i32 - 500,
        max_health: rng.range(100, 60_000) as u32,
        max_mana: if caster {
            rng.range(100, 40_000) as u32
        } else {
            0
        },
        crit: rng.f32(0.0, 0.6),
        haste: rng.f32(1.0, 1.5),
    };
    let mut achievements: Vec<u16> = (0..rng.below(33)).map(|_| rng.below(2000) as u16).collect();
    achievements.sort_unstable();
    achievements.dedup();
    Player {
        id: 10_000_000 + index as u64 * 7 + rng.below(7),
        name: name(rng, 3, 16),
        class,
        faction: *rng.pick(&FACTIONS),
        level,
        experience: u64::from(level) * u64::from(level) * 1000 + rng.below(1000),
        gold: rng.below(1_000_000) as u32,
        gems: rng.percent(40).then(|| rng.below(5000) as u32),
        health: rng.below(u64::from(stats.max_health) + 1) as u32,
        mana: caster.then(|| rng.below(u64::from(stats.max_mana) + 1) as u32),
        karma: rng.range(0, 2000) as i16 - 1000,
        luck: rng.range(0, 20) as i8 - 10,
        deaths: rng.below(500) as u16,
        pvp_rating: rng.percent(30).then(|| rng.range(800, 2400) as u16),
        created_at,
        last_login: created_at + rng.below(100_000_000) as i64,
        play_time_s: rng.below(3_000_000) as u32,
        muted_until: rng
            .percent(5)
            .then(|| 1_760_000_000 + rng.below(1_000_000) as i64),
        damage_dealt: rng.below(1 << 40) as f64 / 16.0,
        scale: rng.f32(0.8, 1.2),
        hardcore: rng.percent(10),
        online: rng.percent(20),
        position: position(rng),
        respawn: rng.percent(60).then(|| position(rng)),
        stats,
        guild: rng.percent(50).then(|| Guild {
            id: rng.range(1, 50_000),
            name: format!("{} {}", rng.pick(&GUILD_WORDS), rng.pick(&GUILD_WORDS)),
            rank: rng.below(10) as u8,
            motd: rng.percent(50).then(|| rng.pick(&MOTDS).to_string()),
        }),
        pet: rng.percent(30).then(|| Pet {
            species: rng.range(1, 300) as u16,
            level: rng.range(1, 25) as u8,
            name: rng.percent(50).then(|| name(rng, 3, 12)),
        }),
        title: rng.percent(35).then(|| title(rng)),
        inventory: (0..rng.below(21))
            .map(|_| Item {
                id: rng.range(1, 60_000) as u32,
                count: rng.range(1, 200) as u16,
                durability: rng.below(101) as u8,
                rarity: if rng.percent(1) {
                    Rarity::Legendary
                } else {
                    *rng.pick(&RARITIES)
                },
                bound: rng.percent(25),
            })
            .collect(),
        quests: (0..rng.below(11))
            .map(|_| Quest {
                id: rng.range(1, 9000) as u32,
                step: rng.below(8) as u8,
                progress: rng.f32(0.0, 1.0),
                done: rng.percent(20),
                expires_at: rng
                    .percent(30)
                    .then(|| 1_760_000_000 + rng.below(604_800) as i64),
            })
            .collect(),
        skills: (0..rng.below(13))
            .map(|_| Skill {
                id: rng.range(1, 800) as u16,
                rank: rng.range(1, 10) as u8,
                xp: rng.below(100_000) as u32,
            })
            .collect(),
        titles: (0..rng.below(9)).map(|_| title(rng)).collect(),
        friends: (0..rng.below(9)).map(|_| name(rng, 5, 20)).collect(),
        achievements,
    }
}

// ---- `read_some` and `update` ----

/// The fields `read_some` loads from a player, as folded.
#[inline(always)]
fn some_player(id: u64, level: u8, health: u32) -> [u64; 3] {
    [id, level.into(), health.into()]
}

/// What `update` stores into player `index`: `health`, `online`,
/// `last_login`.
#[inline(always)]
fn new_state(round: u64, index: usize) -> (u32, bool, i64) {
    let at = round.wrapping_add(index as u64);
    (
        (at % 60_000) as u32,
        at % 2 == 1,
        1_760_000_000i64.wrapping_add(at as i64),
    )
}

// ---- the fold of every field ----
//
// The fixed-size records are rebuilt as the model's (`Copy`) from each
// format's accessors, then folded by one function: every field is still read.

fn fold_position(f: &mut Fold, p: Position) {
    f.u64(p.zone.into());
    for v in [p.x, p.y, p.z, p.yaw] {
        f.u64(v.to_bits().into());
    }
}

fn fold_stats(f: &mut Fold, s: Stats) {
    for v in [s.strength, s.agility, s.intellect, s.stamina] {
        f.u64(v.into());
    }
    f.i64(s.armor.into());
    f.u64(s.max_health.into());
    f.u64(s.max_mana.into());
    f.u64(s.crit.to_bits().into());
    f.u64(s.haste.to_bits().into());
}

fn fold_item(f: &mut Fold, it: Item) {
    f.u64(it.id.into());
    f.u64(it.count.into());
    f.u64(it.durability.into());
    f.u64(it.rarity as u64);
    f.u64(it.bound.into());
}

fn fold_quest(f: &mut Fold, q: Quest) {
    f.u64(q.id.into());
    f.u64(q.step.into());
    f.u64(q.progress.to_bits().into());
    f.u64(q.done.into());
    f.opt(q.expires_at.map(|t| t as u64));
}

fn fold_skill(f: &mut Fold, s: Skill) {
    f.u64(s.id.into());
    f.u64(s.rank.into());
    f.u64(s.xp.into());
}

/// The fixed-size fields of a player, in declaration order, up to `online`.
#[derive(Clone, Copy)]
struct Head {
    id: u64,
    class: Class,
    faction: Faction,
    level: u8,
    experience: u64,
    gold: u32,
    gems: Option<u32>,
    health: u32,
    mana: Option<u32>,
    karma: i16,
    luck: i8,
    deaths: u16,
    pvp_rating: Option<u16>,
    created_at: i64,
    last_login: i64,
    play_time_s: u32,
    muted_until: Option<i64>,
    damage_dealt: f64,
    scale: f32,
    hardcore: bool,
    online: bool,
}

/// Folds `name` then the head's fields, in the model's order (`name` is the
/// second field).
fn fold_head(f: &mut Fold, name: &str, h: Head) {
    f.u64(h.id);
    f.str(name);
    f.u64(h.class as u64);
    f.u64(h.faction as u64);
    f.u64(h.level.into());
    f.u64(h.experience);
    f.u64(h.gold.into());
    f.opt(h.gems.map(u64::from));
    f.u64(h.health.into());
    f.opt(h.mana.map(u64::from));
    f.i64(h.karma.into());
    f.i64(h.luck.into());
    f.u64(h.deaths.into());
    f.opt(h.pvp_rating.map(u64::from));
    f.i64(h.created_at);
    f.i64(h.last_login);
    f.u64(h.play_time_s.into());
    f.opt(h.muted_until.map(|t| t as u64));
    f.f64(h.damage_dealt);
    f.u64(h.scale.to_bits().into());
    f.u64(h.hardcore.into());
    f.u64(h.online.into());
}

fn fold_opt_position(f: &mut Fold, p: Option<Position>) {
    f.u64(p.is_some().into());
    if let Some(p) = p {
        fold_position(f, p);
    }
}

/// Folds an optional guild's presence then its fields.
fn fold_guild(f: &mut Fold, g: Option<(u64, &str, u8, Option<&str>)>) {
    f.u64(g.is_some().into());
    if let Some((id, name, rank, motd)) = g {
        f.u64(id);
        f.str(name);
        f.u64(rank.into());
        f.opt_str(motd);
    }
}

/// Folds an optional pet's presence then its fields.
fn fold_pet(f: &mut Fold, p: Option<(u16, u8, Option<&str>)>) {
    f.u64(p.is_some().into());
    if let Some((species, level, name)) = p {
        f.u64(species.into());
        f.u64(level.into());
        f.opt_str(name);
    }
}

fn fold_u16(f: &mut Fold, v: u16) {
    f.u64(v.into());
}

impl Player {
    fn head(&self) -> Head {
        Head {
            id: self.id,
            class: self.class,
            faction: self.faction,
            level: self.level,
            experience: self.experience,
            gold: self.gold,
            gems: self.gems,
            health: self.health,
            mana: self.mana,
            karma: self.karma,
            luck: self.luck,
            deaths: self.deaths,
            pvp_rating: self.pvp_rating,
            created_at: self.created_at,
            last_login: self.last_login,
            play_time_s: self.play_time_s,
            muted_until: self.muted_until,
            damage_dealt: self.damage_dealt,
            scale: self.scale,
            hardcore: self.hardcore,
            online: self.online,
        }
    }

    fn fold(&self, f: &mut Fold) {
        fold_head(f, &self.name, self.head());
        fold_position(f, self.position);
        fold_opt_position(f, self.respawn);
        fold_stats(f, self.stats);
        fold_guild(
            f,
            self.guild
                .as_ref()
                .map(|g| (g.id, g.name.as_str(), g.rank, g.motd.as_deref())),
        );
        fold_pet(
            f,
            self.pet
                .as_ref()
                .map(|p| (p.species, p.level, p.name.as_deref())),
        );
        f.opt_str(self.title.as_deref());
        f.list(self.inventory.iter().copied(), fold_item);
        f.list(self.quests.iter().copied(), fold_quest);
        f.list(self.skills.iter().copied(), fold_skill);
        f.list(self.titles.iter().map(String::as_str), Fold::str);
        f.list(self.friends.iter().map(String::as_str), Fold::str);
        f.list(self.achievements.iter().copied(), fold_u16);
    }
}

impl Dataset for Players {
    const NAME: &'static str = "player";
    const LEN: usize = 500;

    fn generate(len: usize) -> Self {
        let mut rng = Rng::new(0x706c_6179_6572_0008);
        Self {
            save_version: 12,
            players: (0..len).map(|i| player(&mut rng, i)).collect(),
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.u64(self.save_version.into());
        f.len(self.players.len());
        for p in &self.players {
            p.fold(&mut f);
        }
        f.finish()
    }

    fn checksum_some(&self) -> Option<u64> {
        Some(fold_some(&self.players, |p| {
            some_player(p.id, p.level, p.health)
        }))
    }

    fn apply_update(&mut self, round: u64) {
        for (i, p) in self.players.iter_mut().enumerate() {
            (p.health, p.online, p.last_login) = new_state(round, i);
        }
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor, without_prost);
    }
}

// ---- wiremsg ----

fn position_wiremsg(p: PositionView<'_>) -> Position {
    Position {
        zone: p.zone(),
        x: p.x(),
        y: p.y(),
        z: p.z(),
        yaw: p.yaw(),
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { wiremsg_view::<Players, CHECKED>(bytes) };
    let players = root.players();
    let mut f = Fold::new();
    f.u64(root.save_version().into());
    f.len(players.len());
    for p in players {
        let head = Head {
            id: p.id(),
            class: p.class(),
            faction: p.faction(),
            level: p.level(),
            experience: p.experience(),
            gold: p.gold(),
            gems: p.gems(),
            health: p.health(),
            mana: p.mana(),
            karma: p.karma(),
            luck: p.luck(),
            deaths: p.deaths(),
            pvp_rating: p.pvp_rating(),
            created_at: p.created_at(),
            last_login: p.last_login(),
            play_time_s: p.play_time_s(),
            muted_until: p.muted_until(),
            damage_dealt: p.damage_dealt(),
            scale: p.scale(),
            hardcore: p.hardcore(),
            online: p.online(),
        };
        fold_head(&mut f, p.name(), head);
        fold_position(&mut f, position_wiremsg(p.position()));
        fold_opt_position(&mut f, p.respawn().map(position_wiremsg));
        let s = p.stats();
        fold_stats(
            &mut f,
            Stats {
                strength: s.strength(),
                agility: s.agility(),
                intellect: s.intellect(),
                stamina: s.stamina(),
                armor: s.armor(),
                max_health: s.max_health(),
                max_mana: s.max_mana(),
                crit: s.crit(),
                haste: s.haste(),
            },
        );
        fold_guild(
            &mut f,
            p.guild().map(|g| (g.id(), g.name(), g.rank(), g.motd())),
        );
        fold_pet(&mut f, p.pet().map(|p| (p.species(), p.level(), p.name())));
        f.opt_str(p.title());
        f.list(p.inventory().iter(), |f, it| {
            fold_item(
                f,
                Item {
                    id: it.id(),
                    count: it.count(),
                    durability: it.durability(),
                    rarity: it.rarity(),
                    bound: it.bound(),
                },
            );
        });
        f.list(p.quests().iter(), |f, q| {
            fold_quest(
                f,
                Quest {
                    id: q.id(),
                    step: q.step(),
                    progress: q.progress(),
                    done: q.done(),
                    expires_at: q.expires_at(),
                },
            );
        });
        f.list(p.skills().iter(), |f, s| {
            fold_skill(
                f,
                Skill {
                    id: s.id(),
                    rank: s.rank(),
                    xp: s.xp(),
                },
            );
        });
        f.list(p.titles().iter(), Fold::str);
        f.list(p.friends().iter(), Fold::str);
        f.list(p.achievements().iter(), fold_u16);
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { wiremsg_view::<Players, CHECKED>(bytes) };
    fold_some(root.players(), |p| {
        some_player(p.id(), p.level(), p.health())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let mut root = unsafe { wiremsg_mut::<Players, CHECKED>(bytes) };
    let mut players = root.players_mut();
    for i in 0..players.len() {
        let (health, online, last_login) = new_state(round, i);
        let mut p = players.get_mut(i).expect("wiremsg: index below len");
        p.set_health(health);
        p.set_online(online);
        p.set_last_login(last_login);
    }
}

fn position_lazy(p: PositionLazy<'_>) -> wiremsg::Result<Position> {
    Ok(Position {
        zone: p.zone()?,
        x: p.x()?,
        y: p.y()?,
        z: p.z()?,
        yaw: p.yaw()?,
    })
}

/// `read_lazy`: the fold of `read`, every field checked as it is read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let root = Players::view_lazy(bytes)?;
    let players = root.players()?;
    let mut f = Fold::new();
    f.u64(root.save_version()?.into());
    f.len(players.len());
    for p in players {
        let p = p?;
        let head = Head {
            id: p.id()?,
            class: p.class()?,
            faction: p.faction()?,
            level: p.level()?,
            experience: p.experience()?,
            gold: p.gold()?,
            gems: p.gems()?,
            health: p.health()?,
            mana: p.mana()?,
            karma: p.karma()?,
            luck: p.luck()?,
            deaths: p.deaths()?,
            pvp_rating: p.pvp_rating()?,
            created_at: p.created_at()?,
            last_login: p.last_login()?,
            play_time_s: p.play_time_s()?,
            muted_until: p.muted_until()?,
            damage_dealt: p.damage_dealt()?,
            scale: p.scale()?,
            hardcore: p.hardcore()?,
            online: p.online()?,
        };
        fold_head(&mut f, p.name()?, head);
        fold_position(&mut f, position_lazy(p.position()?)?);
        fold_opt_position(&mut f, p.respawn()?.map(position_lazy).transpose()?);
        let s = p.stats()?;
        fold_stats(
            &mut f,
            Stats {
                strength: s.strength()?,
                agility: s.agility()?,
                intellect: s.intellect()?,
                stamina: s.stamina()?,
                armor: s.armor()?,
                max_health: s.max_health()?,
                max_mana: s.max_mana()?,
                crit: s.crit()?,
                haste: s.haste()?,
            },
        );
        let guild = match p.guild()? {
            Some(g) => Some((g.id()?, g.name()?, g.rank()?, g.motd()?)),
            None => None,
        };
        fold_guild(&mut f, guild);
        let pet = match p.pet()? {
            Some(p) => Some((p.species()?, p.level()?, p.name()?)),
            None => None,
        };
        fold_pet(&mut f, pet);
        f.opt_str(p.title()?);
        try_fold_list(&mut f, p.inventory()?.iter(), |f, it| {
            fold_item(
                f,
                Item {
                    id: it.id()?,
                    count: it.count()?,
                    durability: it.durability()?,
                    rarity: it.rarity()?,
                    bound: it.bound()?,
                },
            );
            Ok(())
        })?;
        try_fold_list(&mut f, p.quests()?.iter(), |f, q| {
            fold_quest(
                f,
                Quest {
                    id: q.id()?,
                    step: q.step()?,
                    progress: q.progress()?,
                    done: q.done()?,
                    expires_at: q.expires_at()?,
                },
            );
            Ok(())
        })?;
        try_fold_list(&mut f, p.skills()?.iter(), |f, s| {
            fold_skill(
                f,
                Skill {
                    id: s.id()?,
                    rank: s.rank()?,
                    xp: s.xp()?,
                },
            );
            Ok(())
        })?;
        try_fold_list(&mut f, p.titles()?.iter(), |f, s| {
            f.str(s);
            Ok(())
        })?;
        try_fold_list(&mut f, p.friends()?.iter(), |f, s| {
            f.str(s);
            Ok(())
        })?;
        try_fold_list(&mut f, p.achievements()?.iter(), |f, a| {
            fold_u16(f, a);
            Ok(())
        })?;
    }
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each checked as it is read.
#[inline(always)]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let root = Players::view_lazy(bytes)?;
    try_fold_some(root.players()?, |p| {
        Ok(some_player(p.id()?, p.level()?, p.health()?))
    })
}

// ---- rkyv ----

fn class_rkyv(c: &ArchivedClass) -> Class {
    match c {
        ArchivedClass::Warrior => Class::Warrior,
        ArchivedClass::Mage => Class::Mage,
        ArchivedClass::Rogue => Class::Rogue,
        ArchivedClass::Ranger => Class::Ranger,
        ArchivedClass::Cleric => Class::Cleric,
        ArchivedClass::Druid => Class::Druid,
    }
}

fn faction_rkyv(c: &ArchivedFaction) -> Faction {
    match c {
        ArchivedFaction::Alliance => Faction::Alliance,
        ArchivedFaction::Horde => Faction::Horde,
        ArchivedFaction::Neutral => Faction::Neutral,
    }
}

fn rarity_rkyv(r: &ArchivedRarity) -> Rarity {
    match r {
        ArchivedRarity::Common => Rarity::Common,
        ArchivedRarity::Uncommon => Rarity::Uncommon,
        ArchivedRarity::Rare => Rarity::Rare,
        ArchivedRarity::Epic => Rarity::Epic,
        ArchivedRarity::Legendary => Rarity::Legendary,
    }
}

fn position_rkyv(p: &ArchivedPosition) -> Position {
    Position {
        zone: p.zone.to_native(),
        x: p.x.to_native(),
        y: p.y.to_native(),
        z: p.z.to_native(),
        yaw: p.yaw.to_native(),
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root::<ArchivedPlayers, CHECKED>(bytes) };
    let mut f = Fold::new();
    f.u64(root.save_version.to_native().into());
    f.len(root.players.len());
    for p in root.players.iter() {
        let head = Head {
            id: p.id.to_native(),
            class: class_rkyv(&p.class),
            faction: faction_rkyv(&p.faction),
            level: p.level,
            experience: p.experience.to_native(),
            gold: p.gold.to_native(),
            gems: p.gems.as_ref().map(|v| v.to_native()),
            health: p.health.to_native(),
            mana: p.mana.as_ref().map(|v| v.to_native()),
            karma: p.karma.to_native(),
            luck: p.luck,
            deaths: p.deaths.to_native(),
            pvp_rating: p.pvp_rating.as_ref().map(|v| v.to_native()),
            created_at: p.created_at.to_native(),
            last_login: p.last_login.to_native(),
            play_time_s: p.play_time_s.to_native(),
            muted_until: p.muted_until.as_ref().map(|v| v.to_native()),
            damage_dealt: p.damage_dealt.to_native(),
            scale: p.scale.to_native(),
            hardcore: p.hardcore,
            online: p.online,
        };
        fold_head(&mut f, &p.name, head);
        fold_position(&mut f, position_rkyv(&p.position));
        fold_opt_position(&mut f, p.respawn.as_ref().map(position_rkyv));
        let s = &p.stats;
        fold_stats(
            &mut f,
            Stats {
                strength: s.strength.to_native(),
                agility: s.agility.to_native(),
                intellect: s.intellect.to_native(),
                stamina: s.stamina.to_native(),
                armor: s.armor.to_native(),
                max_health: s.max_health.to_native(),
                max_mana: s.max_mana.to_native(),
                crit: s.crit.to_native(),
                haste: s.haste.to_native(),
            },
        );
        fold_guild(
            &mut f,
            p.guild.as_ref().map(|g| {
                (
                    g.id.to_native(),
                    g.name.as_str(),
                    g.rank,
                    g.motd.as_ref().map(|m| m.as_str()),
                )
            }),
        );
        fold_pet(
            &mut f,
            p.pet.as_ref().map(|p| {
                (
                    p.species.to_native(),
                    p.level,
                    p.name.as_ref().map(|n| n.as_str()),
                )
            }),
        );
        f.opt_str(p.title.as_ref().map(|t| t.as_str()));
        f.list(p.inventory.iter(), |f, it| {
            fold_item(
                f,
                Item {
                    id: it.id.to_native(),
                    count: it.count.to_native(),
                    durability: it.durability,
                    rarity: rarity_rkyv(&it.rarity),
                    bound: it.bound,
                },
            );
        });
        f.list(p.quests.iter(), |f, q| {
            fold_quest(
                f,
                Quest {
                    id: q.id.to_native(),
                    step: q.step,
                    progress: q.progress.to_native(),
                    done: q.done,
                    expires_at: q.expires_at.as_ref().map(|t| t.to_native()),
                },
            );
        });
        f.list(p.skills.iter(), |f, s| {
            fold_skill(
                f,
                Skill {
                    id: s.id.to_native(),
                    rank: s.rank,
                    xp: s.xp.to_native(),
                },
            );
        });
        f.list(p.titles.iter().map(|t| t.as_str()), Fold::str);
        f.list(p.friends.iter().map(|t| t.as_str()), Fold::str);
        f.list(p.achievements.iter().map(|a| a.to_native()), fold_u16);
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn some_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root::<ArchivedPlayers, CHECKED>(bytes) };
    fold_some(root.players.iter(), |p| {
        some_player(p.id.to_native(), p.level, p.health.to_native())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root_mut::<ArchivedPlayers, CHECKED>(bytes) };
    munge!(let ArchivedPlayers { players, .. } = root);
    let mut players = ArchivedVec::as_slice_seal(players);
    for i in 0..players.len() {
        let (new_health, new_online, new_last_login) = new_state(round, i);
        let p = players.as_mut().index(i);
        munge!(let ArchivedPlayer { mut health, mut online, mut last_login, .. } = p);
        *health = rkyv::Archived::<u32>::from_native(new_health);
        *online = new_online;
        *last_login = rkyv::Archived::<i64>::from_native(new_last_login);
    }
}

derived_codecs!(
    Players,
    ArchivedPlayers,
    read: (read_wiremsg, read_rkyv),
    read_some: (some_wiremsg, some_rkyv),
    update: (update_wiremsg, update_rkyv),
    read_lazy: read_lazy_wiremsg,
    read_some_lazy: some_lazy_wiremsg,
);

// ---- FlatBuffers ----

fn position_fb(p: &Position) -> fb::Position {
    fb::Position::new(p.x, p.y, p.z, p.yaw, p.zone)
}

fn position_from_fb(p: &fb::Position) -> Position {
    Position {
        zone: p.zone(),
        x: p.x(),
        y: p.y(),
        z: p.z(),
        yaw: p.yaw(),
    }
}

fn stats_from_fb(s: &fb::Stats) -> Stats {
    Stats {
        strength: s.strength(),
        agility: s.agility(),
        intellect: s.intellect(),
        stamina: s.stamina(),
        armor: s.armor(),
        max_health: s.max_health(),
        max_mana: s.max_mana(),
        crit: s.crit(),
        haste: s.haste(),
    }
}

/// The model's enum for a FlatBuffers enum value (`from_raw`: the wire
/// values are the same).
fn enum_from_fb<E: WireEnum<Repr = u8>>(raw: u8) -> E {
    E::from_raw(raw).expect("flatbuffers: an enum value the model does not have")
}

fn item_from_fb(it: &fb::Item) -> Item {
    Item {
        id: it.id(),
        count: it.count(),
        durability: it.durability(),
        rarity: enum_from_fb(it.rarity().0),
        bound: it.bound(),
    }
}

fn quest_from_fb(q: fb::Quest<'_>) -> Quest {
    Quest {
        id: q.id(),
        step: q.step(),
        progress: q.progress(),
        done: q.done(),
        expires_at: q.expires_at(),
    }
}

fn skill_from_fb(s: &fb::Skill) -> Skill {
    Skill {
        id: s.id(),
        rank: s.rank(),
        xp: s.xp(),
    }
}

fn head_from_fb(p: fb::Player<'_>) -> Head {
    Head {
        id: p.id(),
        class: enum_from_fb(p.class().0),
        faction: enum_from_fb(p.faction().0),
        level: p.level(),
        experience: p.experience(),
        gold: p.gold(),
        gems: p.gems(),
        health: p.health(),
        mana: p.mana(),
        karma: p.karma(),
        luck: p.luck(),
        deaths: p.deaths(),
        pvp_rating: p.pvp_rating(),
        created_at: p.created_at(),
        last_login: p.last_login(),
        play_time_s: p.play_time_s(),
        muted_until: p.muted_until(),
        damage_dealt: p.damage_dealt(),
        scale: p.scale(),
        hardcore: p.hardcore(),
        online: p.online(),
    }
}

/// A vector of strings (their offsets gathered in `scratch`, since the strings
/// must be finished before the vector starts).
fn fb_strings(
    b: &mut FlatBufferBuilder<'static>,
    scratch: &mut Vec<WIPOffset<&'static str>>,
    strings: &[String],
) -> WIPOffset<Vector<'static, ForwardsUOffset<&'static str>>> {
    scratch.clear();
    scratch.extend(strings.iter().map(|s| b.create_string(s)));
    b.create_vector(scratch)
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { fb_root::<fb::Players<'_>, CHECKED>(bytes) };
    let players = root.players();
    let mut f = Fold::new();
    f.u64(root.save_version().into());
    f.len(players.len());
    for p in players {
        fold_head(&mut f, p.name(), head_from_fb(p));
        fold_position(&mut f, position_from_fb(p.position()));
        fold_opt_position(&mut f, p.respawn().map(position_from_fb));
        fold_stats(&mut f, stats_from_fb(p.stats()));
        fold_guild(
            &mut f,
            p.guild().map(|g| (g.id(), g.name(), g.rank(), g.motd())),
        );
        fold_pet(&mut f, p.pet().map(|p| (p.species(), p.level(), p.name())));
        f.opt_str(p.title());
        f.list(p.inventory().iter(), |f, it| {
            fold_item(f, item_from_fb(it));
        });
        f.list(p.quests().iter(), |f, q| fold_quest(f, quest_from_fb(q)));
        f.list(p.skills().iter(), |f, s| {
            fold_skill(f, skill_from_fb(s));
        });
        f.list(p.titles().iter(), Fold::str);
        f.list(p.friends().iter(), Fold::str);
        f.list(p.achievements().iter(), fold_u16);
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn some_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { fb_root::<fb::Players<'_>, CHECKED>(bytes) };
    fold_some(root.players(), |p| {
        some_player(p.id(), p.level(), p.health())
    })
}

impl Codec<Players> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &Players) -> &[u8] {
        let b = &mut self.builder;
        b.reset();
        self.players.clear();
        for p in &data.players {
            let name = b.create_string(&p.name);
            let guild = p.guild.as_ref().map(|g| {
                let name = b.create_string(&g.name);
                let motd = g.motd.as_deref().map(|m| b.create_string(m));
                fb::Guild::create(
                    b,
                    &fb::GuildArgs {
                        id: g.id,
                        name: Some(name),
                        rank: g.rank,
                        motd,
                    },
                )
            });
            let pet = p.pet.as_ref().map(|pet| {
                let name = pet.name.as_deref().map(|n| b.create_string(n));
                fb::Pet::create(
                    b,
                    &fb::PetArgs {
                        species: pet.species,
                        level: pet.level,
                        name,
                    },
                )
            });
            let title = p.title.as_deref().map(|t| b.create_string(t));
            let inventory = b.create_vector_from_iter(p.inventory.iter().map(|it| {
                fb::Item::new(
                    it.id,
                    it.count,
                    it.durability,
                    fb::Rarity(it.rarity as u8),
                    it.bound,
                )
            }));
            self.quests.clear();
            for q in &p.quests {
                self.quests.push(fb::Quest::create(
                    b,
                    &fb::QuestArgs {
                        id: q.id,
                        step: q.step,
                        progress: q.progress,
                        done: q.done,
                        expires_at: q.expires_at,
                    },
                ));
            }
            let quests = b.create_vector(&self.quests);
            let skills = b.create_vector_from_iter(
                p.skills.iter().map(|s| fb::Skill::new(s.xp, s.id, s.rank)),
            );
            let titles = fb_strings(b, &mut self.strings, &p.titles);
            let friends = fb_strings(b, &mut self.strings, &p.friends);
            let achievements = b.create_vector(&p.achievements);
            let position = position_fb(&p.position);
            let respawn = p.respawn.as_ref().map(position_fb);
            let s = &p.stats;
            let stats = fb::Stats::new(
                s.armor,
                s.max_health,
                s.max_mana,
                s.crit,
                s.haste,
                s.strength,
                s.agility,
                s.intellect,
                s.stamina,
            );
            self.players.push(fb::Player::create(
                b,
                &fb::PlayerArgs {
                    id: p.id,
                    name: Some(name),
                    class: fb::PlayerClass(p.class as u8),
                    faction: fb::Faction(p.faction as u8),
                    level: p.level,
                    experience: p.experience,
                    gold: p.gold,
                    gems: p.gems,
                    health: p.health,
                    mana: p.mana,
                    karma: p.karma,
                    luck: p.luck,
                    deaths: p.deaths,
                    pvp_rating: p.pvp_rating,
                    created_at: p.created_at,
                    last_login: p.last_login,
                    play_time_s: p.play_time_s,
                    muted_until: p.muted_until,
                    damage_dealt: p.damage_dealt,
                    scale: p.scale,
                    hardcore: p.hardcore,
                    online: p.online,
                    position: Some(&position),
                    respawn: respawn.as_ref(),
                    stats: Some(&stats),
                    guild,
                    pet,
                    title,
                    inventory: Some(inventory),
                    quests: Some(quests),
                    skills: Some(skills),
                    titles: Some(titles),
                    friends: Some(friends),
                    achievements: Some(achievements),
                },
            ));
        }
        let players = b.create_vector(&self.players);
        let root = fb::Players::create(
            b,
            &fb::PlayersArgs {
                save_version: data.save_version,
                players: Some(players),
            },
        );
        b.finish_minimal(root);
        b.finished_data()
    }

    fn decode(&self, bytes: &[u8]) -> Players {
        let root = root::<fb::Players<'_>>(bytes);
        let owned = |s: Option<&str>| s.map(str::to_owned);
        Players {
            save_version: root.save_version(),
            players: root
                .players()
                .iter()
                .map(|p| {
                    let h = head_from_fb(p);
                    Player {
                        id: h.id,
                        name: p.name().to_owned(),
                        class: h.class,
                        faction: h.faction,
                        level: h.level,
                        experience: h.experience,
                        gold: h.gold,
                        gems: h.gems,
                        health: h.health,
                        mana: h.mana,
                        karma: h.karma,
                        luck: h.luck,
                        deaths: h.deaths,
                        pvp_rating: h.pvp_rating,
                        created_at: h.created_at,
                        last_login: h.last_login,
                        play_time_s: h.play_time_s,
                        muted_until: h.muted_until,
                        damage_dealt: h.damage_dealt,
                        scale: h.scale,
                        hardcore: h.hardcore,
                        online: h.online,
                        position: position_from_fb(p.position()),
                        respawn: p.respawn().map(position_from_fb),
                        stats: stats_from_fb(p.stats()),
                        guild: p.guild().map(|g| Guild {
                            id: g.id(),
                            name: g.name().to_owned(),
                            rank: g.rank(),
                            motd: owned(g.motd()),
                        }),
                        pet: p.pet().map(|pet| Pet {
                            species: pet.species(),
                            level: pet.level(),
                            name: owned(pet.name()),
                        }),
                        title: owned(p.title()),
                        inventory: p.inventory().iter().map(item_from_fb).collect(),
                        quests: p.quests().iter().map(quest_from_fb).collect(),
                        skills: p.skills().iter().map(skill_from_fb).collect(),
                        titles: p.titles().iter().map(str::to_owned).collect(),
                        friends: p.friends().iter().map(str::to_owned).collect(),
                        achievements: p.achievements().iter().collect(),
                    }
                })
                .collect(),
        }
    }

    fb_access_methods!(fb::Players<'_>);

    read_methods!(read_fb);
    read_some_methods!(some_fb);
}

// ---- capnp ----

fn position_capnp(p: pc::position::Reader<'_>) -> Position {
    Position {
        zone: p.get_zone(),
        x: p.get_x(),
        y: p.get_y(),
        z: p.get_z(),
        yaw: p.get_yaw(),
    }
}

fn set_position_capnp(mut out: pc::position::Builder<'_>, p: &Position) {
    out.set_zone(p.zone);
    out.set_x(p.x);
    out.set_y(p.y);
    out.set_z(p.z);
    out.set_yaw(p.yaw);
}

fn stats_capnp(s: pc::stats::Reader<'_>) -> Stats {
    Stats {
        strength: s.get_strength(),
        agility: s.get_agility(),
        intellect: s.get_intellect(),
        stamina: s.get_stamina(),
        armor: s.get_armor(),
        max_health: s.get_max_health(),
        max_mana: s.get_max_mana(),
        crit: s.get_crit(),
        haste: s.get_haste(),
    }
}

/// An item, its `rarity` checked against the schema.
fn item_capnp(it: pc::item::Reader<'_>) -> capnp::Result<Item> {
    Ok(Item {
        id: it.get_id(),
        count: it.get_count(),
        durability: it.get_durability(),
        rarity: from_enum(it.get_rarity()?),
        bound: it.get_bound(),
    })
}

/// A quest, its `expires_at` union's discriminant checked.
fn quest_capnp(q: pc::quest::Reader<'_>) -> capnp::Result<Quest> {
    Ok(Quest {
        id: q.get_id(),
        step: q.get_step(),
        progress: q.get_progress(),
        done: q.get_done(),
        expires_at: capnp_opt!(q.get_expires_at(), pc::quest::expires_at),
    })
}

fn skill_capnp(s: pc::skill::Reader<'_>) -> Skill {
    Skill {
        id: s.get_id(),
        rank: s.get_rank(),
        xp: s.get_xp(),
    }
}

/// The head of a player: its enums and the options' discriminants checked.
fn head_capnp(p: pc::player::Reader<'_>) -> capnp::Result<Head> {
    Ok(Head {
        id: p.get_id(),
        class: from_enum(p.get_class()?),
        faction: from_enum(p.get_faction()?),
        level: p.get_level(),
        experience: p.get_experience(),
        gold: p.get_gold(),
        gems: capnp_opt!(p.get_gems(), pc::player::gems),
        health: p.get_health(),
        mana: capnp_opt!(p.get_mana(), pc::player::mana),
        karma: p.get_karma(),
        luck: p.get_luck(),
        deaths: p.get_deaths(),
        pvp_rating: capnp_opt!(p.get_pvp_rating(), pc::player::pvp_rating),
        created_at: p.get_created_at(),
        last_login: p.get_last_login(),
        play_time_s: p.get_play_time_s(),
        muted_until: capnp_opt!(p.get_muted_until(), pc::player::muted_until),
        damage_dealt: p.get_damage_dealt(),
        scale: p.get_scale(),
        hardcore: p.get_hardcore(),
        online: p.get_online(),
    })
}

/// An optional text: `None` for a null pointer, else the text, its pointer and
/// UTF-8 checked.
macro_rules! opt_text {
    ($reader:expr, $has:ident, $get:ident) => {
        if $reader.$has() {
            Some(text($reader.$get()?)?)
        } else {
            None
        }
    };
}

/// `read`: every field of every player, each pointer, text, enum and option
/// checked as it is read.
#[inline(always)]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let root = message.get_root::<pc::players::Reader<'_>>()?;
    let players = root.get_players()?;
    let mut f = Fold::new();
    f.u64(root.get_save_version().into());
    f.len(players.len() as usize);
    for p in players {
        fold_head(&mut f, text(p.get_name()?)?, head_capnp(p)?);
        fold_position(&mut f, position_capnp(p.get_position()?));
        let respawn = if p.has_respawn() {
            Some(position_capnp(p.get_respawn()?))
        } else {
            None
        };
        fold_opt_position(&mut f, respawn);
        fold_stats(&mut f, stats_capnp(p.get_stats()?));
        let guild = if p.has_guild() {
            let g = p.get_guild()?;
            Some((
                g.get_id(),
                text(g.get_name()?)?,
                g.get_rank(),
                opt_text!(g, has_motd, get_motd),
            ))
        } else {
            None
        };
        fold_guild(&mut f, guild);
        let pet = if p.has_pet() {
            let pet = p.get_pet()?;
            Some((
                pet.get_species(),
                pet.get_level(),
                opt_text!(pet, has_name, get_name),
            ))
        } else {
            None
        };
        fold_pet(&mut f, pet);
        f.opt_str(opt_text!(p, has_title, get_title));
        let inventory = p.get_inventory()?;
        f.len(inventory.len() as usize);
        for it in inventory {
            fold_item(&mut f, item_capnp(it)?);
        }
        let quests = p.get_quests()?;
        f.len(quests.len() as usize);
        for q in quests {
            fold_quest(&mut f, quest_capnp(q)?);
        }
        f.list(p.get_skills()?.iter(), |f, s| fold_skill(f, skill_capnp(s)));
        for list in [p.get_titles()?, p.get_friends()?] {
            f.len(list.len() as usize);
            for s in list {
                f.str(text(s?)?);
            }
        }
        f.list(p.get_achievements()?.iter(), fold_u16);
    }
    Ok(f.finish())
}

/// `read_some`: every player's `id`, `level` and `health` (the list's pointer
/// checked; the fields are in each player's data section).
#[inline(always)]
fn some_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let players = message
        .get_root::<pc::players::Reader<'_>>()?
        .get_players()?;
    Ok(fold_some(players, |p| {
        some_player(p.get_id(), p.get_level(), p.get_health())
    }))
}

/// A text list as owned strings.
fn strings_capnp(list: capnp::text_list::Reader<'_>) -> capnp::Result<Vec<String>> {
    list.iter().map(|s| Ok(text(s?)?.to_owned())).collect()
}

fn player_of_capnp(p: pc::player::Reader<'_>) -> capnp::Result<Player> {
    let h = head_capnp(p)?;
    let owned = |s: Option<&str>| s.map(str::to_owned);
    let guild = if p.has_guild() {
        let g = p.get_guild()?;
        Some(Guild {
            id: g.get_id(),
            name: text(g.get_name()?)?.to_owned(),
            rank: g.get_rank(),
            motd: owned(opt_text!(g, has_motd, get_motd)),
        })
    } else {
        None
    };
    let pet = if p.has_pet() {
        let pet = p.get_pet()?;
        Some(Pet {
            species: pet.get_species(),
            level: pet.get_level(),
            name: owned(opt_text!(pet, has_name, get_name)),
        })
    } else {
        None
    };
    Ok(Player {
        id: h.id,
        name: text(p.get_name()?)?.to_owned(),
        class: h.class,
        faction: h.faction,
        level: h.level,
        experience: h.experience,
        gold: h.gold,
        gems: h.gems,
        health: h.health,
        mana: h.mana,
        karma: h.karma,
        luck: h.luck,
        deaths: h.deaths,
        pvp_rating: h.pvp_rating,
        created_at: h.created_at,
        last_login: h.last_login,
        play_time_s: h.play_time_s,
        muted_until: h.muted_until,
        damage_dealt: h.damage_dealt,
        scale: h.scale,
        hardcore: h.hardcore,
        online: h.online,
        position: position_capnp(p.get_position()?),
        respawn: if p.has_respawn() {
            Some(position_capnp(p.get_respawn()?))
        } else {
            None
        },
        stats: stats_capnp(p.get_stats()?),
        guild,
        pet,
        title: owned(opt_text!(p, has_title, get_title)),
        inventory: p
            .get_inventory()?
            .iter()
            .map(item_capnp)
            .collect::<capnp::Result<_>>()?,
        quests: p
            .get_quests()?
            .iter()
            .map(quest_capnp)
            .collect::<capnp::Result<_>>()?,
        skills: p.get_skills()?.iter().map(skill_capnp).collect(),
        titles: strings_capnp(p.get_titles()?)?,
        friends: strings_capnp(p.get_friends()?)?,
        achievements: p.get_achievements()?.iter().collect(),
    })
}

/// Writes player `p` into `out`.
fn set_player_capnp(mut out: pc::player::Builder<'_>, p: &Player) {
    out.set_id(p.id);
    out.set_name(&p.name);
    out.set_class(to_enum(p.class as u8));
    out.set_faction(to_enum(p.faction as u8));
    out.set_level(p.level);
    out.set_experience(p.experience);
    out.set_gold(p.gold);
    capnp_set_opt!(out.reborrow().get_gems(), p.gems);
    out.set_health(p.health);
    capnp_set_opt!(out.reborrow().get_mana(), p.mana);
    out.set_karma(p.karma);
    out.set_luck(p.luck);
    out.set_deaths(p.deaths);
    capnp_set_opt!(out.reborrow().get_pvp_rating(), p.pvp_rating);
    out.set_created_at(p.created_at);
    out.set_last_login(p.last_login);
    out.set_play_time_s(p.play_time_s);
    capnp_set_opt!(out.reborrow().get_muted_until(), p.muted_until);
    out.set_damage_dealt(p.damage_dealt);
    out.set_scale(p.scale);
    out.set_hardcore(p.hardcore);
    out.set_online(p.online);
    set_position_capnp(out.reborrow().init_position(), &p.position);
    if let Some(respawn) = &p.respawn {
        set_position_capnp(out.reborrow().init_respawn(), respawn);
    }
    let s = &p.stats;
    let mut stats = out.reborrow().init_stats();
    stats.set_strength(s.strength);
    stats.set_agility(s.agility);
    stats.set_intellect(s.intellect);
    stats.set_stamina(s.stamina);
    stats.set_armor(s.armor);
    stats.set_max_health(s.max_health);
    stats.set_max_mana(s.max_mana);
    stats.set_crit(s.crit);
    stats.set_haste(s.haste);
    if let Some(g) = &p.guild {
        let mut guild = out.reborrow().init_guild();
        guild.set_id(g.id);
        guild.set_name(&g.name);
        guild.set_rank(g.rank);
        if let Some(motd) = &g.motd {
            guild.set_motd(motd);
        }
    }
    if let Some(pet) = &p.pet {
        let mut out = out.reborrow().init_pet();
        out.set_species(pet.species);
        out.set_level(pet.level);
        if let Some(name) = &pet.name {
            out.set_name(name);
        }
    }
    if let Some(title) = &p.title {
        out.set_title(title);
    }
    let mut inventory = out.reborrow().init_inventory(p.inventory.len() as u32);
    for (i, it) in p.inventory.iter().enumerate() {
        let mut x = inventory.reborrow().get(i as u32);
        x.set_id(it.id);
        x.set_count(it.count);
        x.set_durability(it.durability);
        x.set_rarity(to_enum(it.rarity as u8));
        x.set_bound(it.bound);
    }
    let mut quests = out.reborrow().init_quests(p.quests.len() as u32);
    for (i, q) in p.quests.iter().enumerate() {
        let mut x = quests.reborrow().get(i as u32);
        x.set_id(q.id);
        x.set_step(q.step);
        x.set_progress(q.progress);
        x.set_done(q.done);
        capnp_set_opt!(x.get_expires_at(), q.expires_at);
    }
    let mut skills = out.reborrow().init_skills(p.skills.len() as u32);
    for (i, s) in p.skills.iter().enumerate() {
        let mut x = skills.reborrow().get(i as u32);
        x.set_id(s.id);
        x.set_rank(s.rank);
        x.set_xp(s.xp);
    }
    let lists = "capnp: setting a list of a fresh struct cannot fail";
    out.set_titles(&p.titles[..]).expect(lists);
    out.set_friends(&p.friends[..]).expect(lists);
    out.set_achievements(&p.achievements[..]).expect(lists);
}

impl Codec<Players> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &Players) -> &[u8] {
        self.encode_root::<pc::players::Owned>(|mut root| {
            root.set_save_version(data.save_version);
            let mut players = root.init_players(data.players.len() as u32);
            for (i, p) in data.players.iter().enumerate() {
                set_player_capnp(players.reborrow().get(i as u32), p);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> Players {
        let decode = || -> capnp::Result<Players> {
            let message = capnp_message(bytes)?;
            let root = message.get_root::<pc::players::Reader<'_>>()?;
            Ok(Players {
                save_version: root.get_save_version(),
                players: root
                    .get_players()?
                    .iter()
                    .map(player_of_capnp)
                    .collect::<capnp::Result<_>>()?,
            })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::players::Reader<'_>, read: read_capnp, read_some: some_capnp);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named test on a record: which `Option` is `Some`.
    type Probe<T> = (&'static str, fn(&T) -> bool);

    /// The share of `items` for which `is` holds, in percent.
    fn percent<T>(items: &[T], is: impl Fn(&T) -> bool) -> usize {
        items.iter().filter(|x| is(x)).count() * 100 / items.len()
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(Players::generate(50), Players::generate(50));
        assert_ne!(Players::generate(50), Players::generate(51));
    }

    #[test]
    fn players_have_the_promised_shape() {
        let save = Players::generate(Players::LEN);
        let players = &save.players;
        assert_eq!(players.len(), 500);
        let ids: std::collections::BTreeSet<u64> = players.iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), players.len(), "ids are unique");
        for p in players {
            assert!((3..=16).contains(&p.name.len()), "{:?}", p.name);
            assert!((1..=60).contains(&p.level));
            assert!(p.health <= p.stats.max_health);
            assert_eq!(
                p.mana.is_some(),
                !matches!(p.class, Class::Warrior | Class::Rogue)
            );
            assert!(p.inventory.len() <= 20 && p.quests.len() <= 10 && p.skills.len() <= 12);
            assert!(p.titles.len() <= 8 && p.friends.len() <= 8);
            for s in p.titles.iter().chain(&p.friends) {
                assert!((5..=20).contains(&s.len()), "{s:?}");
            }
            assert!(p.achievements.windows(2).all(|w| w[0] < w[1]), "a set");
            assert!(p.last_login >= p.created_at);
            let floats = [p.scale, p.position.x, p.position.y, p.stats.crit];
            assert!(
                floats
                    .iter()
                    .all(|v| v.is_finite() && v.to_bits() != (-0.0f32).to_bits())
            );
            assert!(p.damage_dealt.is_finite() && p.damage_dealt >= 0.0);
        }
        // Every option is sometimes there and sometimes not.
        let options: [Probe<Player>; 11] = [
            ("gems", |p| p.gems.is_some()),
            ("mana", |p| p.mana.is_some()),
            ("pvp_rating", |p| p.pvp_rating.is_some()),
            ("muted_until", |p| p.muted_until.is_some()),
            ("respawn", |p| p.respawn.is_some()),
            ("guild", |p| p.guild.is_some()),
            ("guild.motd", |p| {
                p.guild.as_ref().is_some_and(|g| g.motd.is_some())
            }),
            ("pet", |p| p.pet.is_some()),
            ("pet.name", |p| {
                p.pet.as_ref().is_some_and(|p| p.name.is_some())
            }),
            ("title", |p| p.title.is_some()),
            ("quest.expires_at", |p| {
                p.quests.iter().any(|q| q.expires_at.is_some())
            }),
        ];
        for (what, is) in options {
            let share = percent(players, is);
            assert!((1..=95).contains(&share), "{what}: Some in {share}%");
        }
        // Empty lists happen, and so do full ones.
        assert!(players.iter().any(|p| p.inventory.is_empty()));
        assert!(players.iter().any(|p| p.inventory.len() == 20));
        assert!(players.iter().any(|p| p.titles.len() == 8));
        // Every class occurs.
        let classes: std::collections::BTreeSet<u8> =
            players.iter().map(|p| p.class as u8).collect();
        assert_eq!(classes.len(), 6);
    }

    #[test]
    fn the_fold_sees_every_player() {
        let save = Players::generate(20);
        let mut other = save.clone();
        other.players[19].achievements.push(4000);
        assert_ne!(save.checksum(), other.checksum());
        let mut other = save.clone();
        other.players[0].pet = None;
        other.players[0].title = Some(String::new());
        assert_ne!(save.checksum(), other.checksum());
    }
}
