//! `game`: 1,000 state updates of a game server, 20–40 contacts each (the
//! entities a client sees), the case of many small records with optional
//! parts and short lists of numbers: each contact has optional numbers and an
//! optional velocity, up to 8 buffs (`u16`) and cooldowns (`f32`), up to 16
//! flags (`bool`); about 1 update in 20 carries a ~1 KB snapshot (opaque
//! bytes, as a compressed world chunk would be).
//!
//! Per format: wiremsg and rkyv encode the model as derived
//! (`derived_codecs!` in the parent module); FlatBuffers as `GameState {
//! updates: [Update] }` (`schema/peers.fbs`: `Contact` a table with `= null`
//! scalars, the mesh's `Vec3` struct, `[ushort]`, `[float]`, `[bool]`; the
//! snapshot a `[ubyte]` left out when absent); capnp as the same shape
//! (`schema/peers.capnp`: options of numbers as unions `absent`/`present`,
//! `velocity` a null pointer when absent, `List(Bool)` a bit list, the snapshot
//! `Data`); postcard and JSON through serde. No prost: the peers of these two
//! data sets are rkyv, FlatBuffers, capnp and the serde baselines. Metrics:
//! `encode`, `access`, `read`, `read_some`, `update` (not FlatBuffers nor
//! capnp), their unchecked twins (not capnp), and `decode`.
//!
//! `read_some` (and `read_some_unchecked`) loads every contact's `id` and
//! `position.x` (a client's interest check), skipping the options and lists;
//! `read_some_lazy` the same through wiremsg's on-demand view (the updates'
//! and contacts' lists, each contact's block, `position` a nested on-demand
//! view), `read_lazy` every field so (the options, `velocity` among them,
//! read whole, as their kind is).
//! `update` (and `update_unchecked`) is mk48's kind of update, a
//! read-modify-write of every entity in place: each contact's `heading` turned
//! by an angle (`heading += turn`, wrapping) and each of its `cooldowns`
//! counted down by a time step (to no less than 0); wiremsg through
//! `update_heading(|h| ..)` and `ListMut::update(i, |c| ..)`, rkyv through
//! `access_mut`, `munge` and the unsealed `&mut [f32_le]` of the cooldowns.
//!
//! Nothing here was awkward to write for wiremsg: `Option<f32>`, an `Option`
//! of a fixed-size struct, `Vec<bool>` and `Option<Vec<u8>>` derive as
//! written.

// rkyv's derives on the enum make helper types without `Debug`.
#![allow(missing_debug_implementations)]

use crate::format::Valid;
use rkyv::munge::munge;
use rkyv::vec::ArchivedVec;
use wiremsg::{WireEnum, WireMsg};

use super::mesh::{
    ArchivedVec3, Vec3, Vec3Lazy, Vec3View, fb_vec3, plus_zero, set_capnp_vec3, vec3_of_capnp,
    vec3_of_fb,
};
use super::{
    Codec, CodecVisitor, Dataset, Rng, derived_codecs, fb_access_methods, fb_root, fold_some, ids,
    read_methods, read_some_methods, rkyv_root, rkyv_root_mut, try_fold_list, visit_formats,
    wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{
    Capnp, capnp_methods, capnp_opt, capnp_set_opt, from_enum, message as capnp_message, to_enum,
};
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;

/// What a contact is.
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
pub enum ContactKind {
    /// Another player.
    Player = 0,
    /// A non-player character.
    Npc = 1,
    /// Something in flight.
    Projectile = 2,
    /// A vehicle or mount.
    Vehicle = 3,
    /// Loot on the ground.
    Loot = 4,
}

/// One entity in view.
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
pub struct Contact {
    /// Entity id.
    pub id: u32,
    /// What it is.
    pub kind: ContactKind,
    /// Where it is.
    pub position: Vec3,
    /// Facing, 1/65536 of a turn.
    pub heading: u16,
    /// Team.
    pub team: u8,
    /// Health, for what can be hurt.
    pub health: Option<u32>,
    /// Shield strength, while a shield is up.
    pub shield: Option<f32>,
    /// Velocity, for what moves.
    pub velocity: Option<Vec3>,
    /// The entity it targets, if any.
    pub target: Option<u32>,
    /// Active buff ids, 0–8.
    pub buffs: Vec<u16>,
    /// Seconds left on each ability's cooldown, 0–8.
    pub cooldowns: Vec<f32>,
    /// State flags (stunned, stealthed, ...), 0–16.
    pub flags: Vec<bool>,
}

/// One update: a tick's view of the world.
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
pub struct Update {
    /// Server tick.
    pub tick: u64,
    /// Server time, µs since the Unix epoch.
    pub server_time_us: i64,
    /// The last client input the server applied.
    pub ack: u32,
    /// The entities in view, 20–40.
    pub contacts: Vec<Contact>,
    /// A world snapshot (~1 KB of opaque bytes), in about 1 update in 20.
    pub snapshot: Option<Vec<u8>>,
}

/// The data set: a run of updates, in tick order.
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
pub struct GameState {
    /// The updates.
    pub updates: Vec<Update>,
}

// ---- generation ----

const KINDS: [ContactKind; 10] = [
    ContactKind::Player,
    ContactKind::Player,
    ContactKind::Player,
    ContactKind::Npc,
    ContactKind::Npc,
    ContactKind::Npc,
    ContactKind::Npc,
    ContactKind::Projectile,
    ContactKind::Vehicle,
    ContactKind::Loot,
];

fn vec3(rng: &mut Rng, range: f32) -> Vec3 {
    Vec3 {
        x: plus_zero(rng.f32(-range, range)),
        y: plus_zero(rng.f32(-range, range)),
        z: plus_zero(rng.f32(-range / 10.0, range / 10.0)),
    }
}

fn contact(rng: &mut Rng) -> Contact {
    let kind = *rng.pick(&KINDS);
    let alive = matches!(
        kind,
        ContactKind::Player | ContactKind::Npc | ContactKind::Vehicle
    );
    let moving = match kind {
        ContactKind::Projectile => true,
        ContactKind::Loot => false,
        _ => rng.percent(60),
    };
    Contact {
        id: rng.below(5000) as u32,
        kind,
        position: vec3(rng, 2000.0),
        heading: rng.below(1 << 16) as u16,
        team: rng.below(4) as u8,
        health: alive.then(|| rng.below(10_000) as u32),
        shield: (alive && rng.percent(30)).then(|| rng.f32(0.0, 500.0)),
        velocity: moving.then(|| vec3(rng, 40.0)),
        target: (alive && rng.percent(35)).then(|| rng.below(5000) as u32),
        buffs: (0..rng.below(9))
            .map(|_| rng.range(1, 900) as u16)
            .collect(),
        cooldowns: (0..rng.below(9)).map(|_| rng.f32(0.0, 30.0)).collect(),
        flags: (0..rng.below(17)).map(|_| rng.percent(20)).collect(),
    }
}

fn update(rng: &mut Rng, index: usize) -> Update {
    Update {
        tick: 1_000_000 + index as u64,
        server_time_us: 1_760_000_000_000_000 + index as i64 * 16_667 + rng.below(500) as i64,
        ack: (index as u32 * 2).saturating_sub(rng.below(6) as u32),
        contacts: (0..rng.range(20, 40)).map(|_| contact(rng)).collect(),
        snapshot: rng.percent(5).then(|| {
            let len = rng.range(1000, 1048) as usize;
            (0..len).map(|_| rng.next_u64() as u8).collect()
        }),
    }
}

// ---- `read_some` and `update` ----

/// The fields `read_some` loads from a contact, as folded.
#[inline(always)]
fn some_contact(id: u32, x: f32) -> [u64; 2] {
    [id.into(), x.to_bits().into()]
}

/// What `update` does in `round`: the angle it turns every contact by
/// (1/65536 of a turn) and the seconds it takes off every cooldown (a
/// multiple of 1/8 below 8, exact in an `f32`).
#[inline(always)]
fn step(round: u64) -> (u16, f32) {
    (
        (round as u16).wrapping_mul(181),
        (round % 64) as f32 * 0.125,
    )
}

/// A heading turned by `turn`.
#[inline(always)]
fn turned(heading: u16, turn: u16) -> u16 {
    heading.wrapping_add(turn)
}

/// A cooldown `dt` seconds later.
#[inline(always)]
fn cooled(cooldown: f32, dt: f32) -> f32 {
    (cooldown - dt).max(0.0)
}

// ---- the fold of every field ----

/// The fixed-size fields of a contact, rebuilt from each format's accessors
/// and folded by one function (every field is still read).
#[derive(Clone, Copy)]
struct Head {
    id: u32,
    kind: ContactKind,
    position: Vec3,
    heading: u16,
    team: u8,
    health: Option<u32>,
    shield: Option<f32>,
    velocity: Option<Vec3>,
    target: Option<u32>,
}

fn fold_vec3(f: &mut Fold, v: Vec3) {
    for c in [v.x, v.y, v.z] {
        f.u64(c.to_bits().into());
    }
}

/// A contact: its fixed-size fields, then its three lists.
#[inline(always)]
fn fold_contact(
    f: &mut Fold,
    h: Head,
    buffs: impl ExactSizeIterator<Item = u16>,
    cooldowns: impl ExactSizeIterator<Item = f32>,
    flags: impl ExactSizeIterator<Item = bool>,
) {
    fold_contact_head(f, h);
    f.list(buffs, |f, b| f.u64(b.into()));
    f.list(cooldowns, |f, c| f.u64(c.to_bits().into()));
    f.list(flags, |f, b| f.u64(b.into()));
}

/// A contact's fixed-size fields, as [`fold_contact`] folds them before its
/// lists.
#[inline(always)]
fn fold_contact_head(f: &mut Fold, h: Head) {
    f.u64(h.id.into());
    f.u64(h.kind as u64);
    fold_vec3(f, h.position);
    f.u64(h.heading.into());
    f.u64(h.team.into());
    f.opt(h.health.map(u64::from));
    f.opt(h.shield.map(|s| s.to_bits().into()));
    f.u64(h.velocity.is_some().into());
    if let Some(v) = h.velocity {
        fold_vec3(f, v);
    }
    f.opt(h.target.map(u64::from));
}

/// An update's fixed-size fields (its contacts come between them and the
/// snapshot).
fn fold_update_head(f: &mut Fold, tick: u64, server_time_us: i64, ack: u32, contacts: usize) {
    f.u64(tick);
    f.i64(server_time_us);
    f.u64(ack.into());
    f.len(contacts);
}

fn fold_snapshot(f: &mut Fold, snapshot: Option<&[u8]>) {
    f.u64(snapshot.is_some().into());
    if let Some(bytes) = snapshot {
        f.bytes(bytes);
    }
}

impl Dataset for GameState {
    const NAME: &'static str = "game";
    const LEN: usize = 1000;

    fn generate(len: usize) -> Self {
        let mut rng = Rng::new(0x6761_6d65_0000_0009);
        Self {
            updates: (0..len).map(|i| update(&mut rng, i)).collect(),
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.len(self.updates.len());
        for u in &self.updates {
            fold_update_head(&mut f, u.tick, u.server_time_us, u.ack, u.contacts.len());
            for c in &u.contacts {
                let head = Head {
                    id: c.id,
                    kind: c.kind,
                    position: c.position,
                    heading: c.heading,
                    team: c.team,
                    health: c.health,
                    shield: c.shield,
                    velocity: c.velocity,
                    target: c.target,
                };
                fold_contact(
                    &mut f,
                    head,
                    c.buffs.iter().copied(),
                    c.cooldowns.iter().copied(),
                    c.flags.iter().copied(),
                );
            }
            fold_snapshot(&mut f, u.snapshot.as_deref());
        }
        f.finish()
    }

    fn checksum_some(&self) -> Option<u64> {
        Some(fold_some(
            self.updates.iter().flat_map(|u| &u.contacts),
            |c| some_contact(c.id, c.position.x),
        ))
    }

    fn apply_update(&mut self, round: u64) {
        let (turn, dt) = step(round);
        for c in self.updates.iter_mut().flat_map(|u| &mut u.contacts) {
            c.heading = turned(c.heading, turn);
            for cooldown in &mut c.cooldowns {
                *cooldown = cooled(*cooldown, dt);
            }
        }
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor, without_prost);
    }
}

// ---- wiremsg ----

fn vec3_wiremsg(v: Vec3View<'_>) -> Vec3 {
    Vec3 {
        x: v.x(),
        y: v.y(),
        z: v.z(),
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { wiremsg_view::<GameState, CHECKED>(bytes) };
    let updates = root.updates();
    let mut f = Fold::new();
    f.len(updates.len());
    for u in updates {
        let contacts = u.contacts();
        fold_update_head(
            &mut f,
            u.tick(),
            u.server_time_us(),
            u.ack(),
            contacts.len(),
        );
        for c in contacts {
            let head = Head {
                id: c.id(),
                kind: c.kind(),
                position: vec3_wiremsg(c.position()),
                heading: c.heading(),
                team: c.team(),
                health: c.health(),
                shield: c.shield(),
                velocity: c.velocity().map(vec3_wiremsg),
                target: c.target(),
            };
            fold_contact(
                &mut f,
                head,
                c.buffs().iter(),
                c.cooldowns().iter(),
                c.flags().iter(),
            );
        }
        fold_snapshot(&mut f, u.snapshot());
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { wiremsg_view::<GameState, CHECKED>(bytes) };
    fold_some(root.updates().iter().flat_map(|u| u.contacts()), |c| {
        some_contact(c.id(), c.position().x())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let (turn, dt) = step(round);
    // SAFETY: forwarded from the caller.
    let mut root = unsafe { wiremsg_mut::<GameState, CHECKED>(bytes) };
    let mut updates = root.updates_mut();
    for i in 0..updates.len() {
        let mut u = updates.get_mut(i).expect("wiremsg: index below len");
        let mut contacts = u.contacts_mut();
        for j in 0..contacts.len() {
            let mut c = contacts.get_mut(j).expect("wiremsg: index below len");
            c.update_heading(|h| turned(h, turn));
            let mut cooldowns = c.cooldowns_mut();
            for k in 0..cooldowns.len() {
                cooldowns.update(k, |v| cooled(v, dt));
            }
        }
    }
}

fn vec3_lazy(v: Vec3Lazy<'_>) -> wiremsg::Result<Vec3> {
    Ok(Vec3 {
        x: v.x()?,
        y: v.y()?,
        z: v.z()?,
    })
}

/// `read_lazy`: the fold of `read`, every field checked as it is read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let root = GameState::view_lazy(bytes)?;
    let updates = root.updates()?;
    let mut f = Fold::new();
    f.len(updates.len());
    for u in updates {
        let u = u?;
        let contacts = u.contacts()?;
        fold_update_head(
            &mut f,
            u.tick()?,
            u.server_time_us()?,
            u.ack()?,
            contacts.len(),
        );
        for c in contacts {
            let c = c?;
            let head = Head {
                id: c.id()?,
                kind: c.kind()?,
                position: vec3_lazy(c.position()?)?,
                heading: c.heading()?,
                team: c.team()?,
                health: c.health()?,
                shield: c.shield()?,
                velocity: c.velocity()?.map(vec3_lazy).transpose()?,
                target: c.target()?,
            };
            fold_contact_head(&mut f, head);
            try_fold_list(&mut f, c.buffs()?.iter(), |f, b| {
                f.u64(b.into());
                Ok(())
            })?;
            try_fold_list(&mut f, c.cooldowns()?.iter(), |f, c| {
                f.u64(c.to_bits().into());
                Ok(())
            })?;
            try_fold_list(&mut f, c.flags()?.iter(), |f, b| {
                f.u64(b.into());
                Ok(())
            })?;
        }
        let snapshot = u.snapshot()?.map(|s| s.to_view()).transpose()?;
        fold_snapshot(&mut f, snapshot);
    }
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each checked as it is read.
#[inline(always)]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let root = GameState::view_lazy(bytes)?;
    let mut f = Fold::new();
    for u in root.updates()? {
        for c in u?.contacts()? {
            let c = c?;
            for value in some_contact(c.id()?, c.position()?.x()?) {
                f.u64(value);
            }
        }
    }
    Ok(f.finish())
}

// ---- rkyv ----

fn kind_rkyv(k: &ArchivedContactKind) -> ContactKind {
    match k {
        ArchivedContactKind::Player => ContactKind::Player,
        ArchivedContactKind::Npc => ContactKind::Npc,
        ArchivedContactKind::Projectile => ContactKind::Projectile,
        ArchivedContactKind::Vehicle => ContactKind::Vehicle,
        ArchivedContactKind::Loot => ContactKind::Loot,
    }
}

fn vec3_rkyv(v: &ArchivedVec3) -> Vec3 {
    Vec3 {
        x: v.x.to_native(),
        y: v.y.to_native(),
        z: v.z.to_native(),
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root::<ArchivedGameState, CHECKED>(bytes) };
    let mut f = Fold::new();
    f.len(root.updates.len());
    for u in root.updates.iter() {
        fold_update_head(
            &mut f,
            u.tick.to_native(),
            u.server_time_us.to_native(),
            u.ack.to_native(),
            u.contacts.len(),
        );
        for c in u.contacts.iter() {
            let head = Head {
                id: c.id.to_native(),
                kind: kind_rkyv(&c.kind),
                position: vec3_rkyv(&c.position),
                heading: c.heading.to_native(),
                team: c.team,
                health: c.health.as_ref().map(|v| v.to_native()),
                shield: c.shield.as_ref().map(|v| v.to_native()),
                velocity: c.velocity.as_ref().map(vec3_rkyv),
                target: c.target.as_ref().map(|v| v.to_native()),
            };
            fold_contact(
                &mut f,
                head,
                c.buffs.iter().map(|b| b.to_native()),
                c.cooldowns.iter().map(|c| c.to_native()),
                c.flags.iter().copied(),
            );
        }
        fold_snapshot(&mut f, u.snapshot.as_ref().map(|s| s.as_slice()));
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn some_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root::<ArchivedGameState, CHECKED>(bytes) };
    fold_some(root.updates.iter().flat_map(|u| u.contacts.iter()), |c| {
        some_contact(c.id.to_native(), c.position.x.to_native())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let (turn, dt) = step(round);
    // SAFETY: forwarded from the caller.
    let root = unsafe { rkyv_root_mut::<ArchivedGameState, CHECKED>(bytes) };
    munge!(let ArchivedGameState { updates } = root);
    let mut updates = ArchivedVec::as_slice_seal(updates);
    for i in 0..updates.len() {
        let u = updates.as_mut().index(i);
        munge!(let ArchivedUpdate { contacts, .. } = u);
        let mut contacts = ArchivedVec::as_slice_seal(contacts);
        for j in 0..contacts.len() {
            let c = contacts.as_mut().index(j);
            munge!(let ArchivedContact { mut heading, cooldowns, .. } = c);
            *heading = rkyv::Archived::<u16>::from_native(turned(heading.to_native(), turn));
            for cooldown in ArchivedVec::as_slice_seal(cooldowns).unseal() {
                *cooldown = rkyv::Archived::<f32>::from_native(cooled(cooldown.to_native(), dt));
            }
        }
    }
}

derived_codecs!(
    GameState,
    ArchivedGameState,
    read: (read_wiremsg, read_rkyv),
    read_some: (some_wiremsg, some_rkyv),
    update: (update_wiremsg, update_rkyv),
    read_lazy: read_lazy_wiremsg,
    read_some_lazy: some_lazy_wiremsg,
);

// ---- FlatBuffers ----

fn head_from_fb(c: fb::Contact<'_>) -> Head {
    Head {
        id: c.id(),
        kind: ContactKind::from_raw(c.kind().0)
            .expect("flatbuffers: a contact kind the model does not have"),
        position: vec3_of_fb(c.position()),
        heading: c.heading(),
        team: c.team(),
        health: c.health(),
        shield: c.shield(),
        velocity: c.velocity().map(vec3_of_fb),
        target: c.target(),
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { fb_root::<fb::GameState<'_>, CHECKED>(bytes) };
    let updates = root.updates();
    let mut f = Fold::new();
    f.len(updates.len());
    for u in updates {
        let contacts = u.contacts();
        fold_update_head(
            &mut f,
            u.tick(),
            u.server_time_us(),
            u.ack(),
            contacts.len(),
        );
        for c in contacts {
            fold_contact(
                &mut f,
                head_from_fb(c),
                c.buffs().iter(),
                c.cooldowns().iter(),
                c.flags().iter(),
            );
        }
        fold_snapshot(&mut f, u.snapshot().map(|s| s.bytes()));
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn some_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let root = unsafe { fb_root::<fb::GameState<'_>, CHECKED>(bytes) };
    fold_some(root.updates().iter().flat_map(|u| u.contacts()), |c| {
        some_contact(c.id(), c.position().x())
    })
}

impl Codec<GameState> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &GameState) -> &[u8] {
        let b = &mut self.builder;
        b.reset();
        self.updates.clear();
        for u in &data.updates {
            self.contacts.clear();
            for c in &u.contacts {
                let buffs = b.create_vector(&c.buffs);
                let cooldowns = b.create_vector(&c.cooldowns);
                let flags = b.create_vector(&c.flags);
                let position = fb_vec3(&c.position);
                let velocity = c.velocity.as_ref().map(fb_vec3);
                self.contacts.push(fb::Contact::create(
                    b,
                    &fb::ContactArgs {
                        id: c.id,
                        kind: fb::ContactKind(c.kind as u8),
                        position: Some(&position),
                        heading: c.heading,
                        team: c.team,
                        health: c.health,
                        shield: c.shield,
                        velocity: velocity.as_ref(),
                        target: c.target,
                        buffs: Some(buffs),
                        cooldowns: Some(cooldowns),
                        flags: Some(flags),
                    },
                ));
            }
            let contacts = b.create_vector(&self.contacts);
            let snapshot = u.snapshot.as_deref().map(|s| b.create_vector(s));
            self.updates.push(fb::Update::create(
                b,
                &fb::UpdateArgs {
                    tick: u.tick,
                    server_time_us: u.server_time_us,
                    ack: u.ack,
                    contacts: Some(contacts),
                    snapshot,
                },
            ));
        }
        let updates = b.create_vector(&self.updates);
        let root = fb::GameState::create(
            b,
            &fb::GameStateArgs {
                updates: Some(updates),
            },
        );
        b.finish_minimal(root);
        b.finished_data()
    }

    fn decode(&self, bytes: &[u8]) -> GameState {
        let root = root::<fb::GameState<'_>>(bytes);
        GameState {
            updates: root
                .updates()
                .iter()
                .map(|u| Update {
                    tick: u.tick(),
                    server_time_us: u.server_time_us(),
                    ack: u.ack(),
                    contacts: u
                        .contacts()
                        .iter()
                        .map(|c| {
                            let h = head_from_fb(c);
                            Contact {
                                id: h.id,
                                kind: h.kind,
                                position: h.position,
                                heading: h.heading,
                                team: h.team,
                                health: h.health,
                                shield: h.shield,
                                velocity: h.velocity,
                                target: h.target,
                                buffs: c.buffs().iter().collect(),
                                cooldowns: c.cooldowns().iter().collect(),
                                flags: c.flags().iter().collect(),
                            }
                        })
                        .collect(),
                    snapshot: u.snapshot().map(|s| s.bytes().to_vec()),
                })
                .collect(),
        }
    }

    fb_access_methods!(fb::GameState<'_>);

    read_methods!(read_fb);
    read_some_methods!(some_fb);
}

// ---- capnp ----

/// A contact's fixed-size fields: its `kind` and options' discriminants checked,
/// its `position` and `velocity` pointers followed (and checked).
#[inline(always)]
fn head_capnp(c: pc::contact::Reader<'_>) -> capnp::Result<Head> {
    Ok(Head {
        id: c.get_id(),
        kind: from_enum(c.get_kind()?),
        position: vec3_of_capnp(c.get_position()?),
        heading: c.get_heading(),
        team: c.get_team(),
        health: capnp_opt!(c.get_health(), pc::contact::health),
        shield: capnp_opt!(c.get_shield(), pc::contact::shield),
        velocity: if c.has_velocity() {
            Some(vec3_of_capnp(c.get_velocity()?))
        } else {
            None
        },
        target: capnp_opt!(c.get_target(), pc::contact::target),
    })
}

/// An update's snapshot: `None` for a null pointer, else its bytes (its
/// pointer checked).
#[inline(always)]
fn snapshot_capnp(u: pc::update::Reader<'_>) -> capnp::Result<Option<&[u8]>> {
    Ok(if u.has_snapshot() {
        Some(u.get_snapshot()?)
    } else {
        None
    })
}

/// `read`: every field, each pointer, enum and option checked as it is read.
#[inline(always)]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let updates = message
        .get_root::<pc::game_state::Reader<'_>>()?
        .get_updates()?;
    let mut f = Fold::new();
    f.len(updates.len() as usize);
    for u in updates {
        let contacts = u.get_contacts()?;
        fold_update_head(
            &mut f,
            u.get_tick(),
            u.get_server_time_us(),
            u.get_ack(),
            contacts.len() as usize,
        );
        for c in contacts {
            fold_contact(
                &mut f,
                head_capnp(c)?,
                c.get_buffs()?.iter(),
                c.get_cooldowns()?.iter(),
                c.get_flags()?.iter(),
            );
        }
        fold_snapshot(&mut f, snapshot_capnp(u)?);
    }
    Ok(f.finish())
}

/// `read_some`: every contact's `id` and `position.x` (the lists' pointers and
/// each `position` pointer checked).
#[inline(always)]
fn some_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let updates = message
        .get_root::<pc::game_state::Reader<'_>>()?
        .get_updates()?;
    let mut f = Fold::new();
    for u in updates {
        for c in u.get_contacts()? {
            for value in some_contact(c.get_id(), c.get_position()?.get_x()) {
                f.u64(value);
            }
        }
    }
    Ok(f.finish())
}

/// Writes contact `c` into `out`.
fn set_contact_capnp(mut out: pc::contact::Builder<'_>, c: &Contact) {
    out.set_id(c.id);
    out.set_kind(to_enum(c.kind as u8));
    set_capnp_vec3(out.reborrow().init_position(), &c.position);
    out.set_heading(c.heading);
    out.set_team(c.team);
    capnp_set_opt!(out.reborrow().get_health(), c.health);
    capnp_set_opt!(out.reborrow().get_shield(), c.shield);
    if let Some(v) = &c.velocity {
        set_capnp_vec3(out.reborrow().init_velocity(), v);
    }
    capnp_set_opt!(out.reborrow().get_target(), c.target);
    let lists = "capnp: setting a list of a fresh struct cannot fail";
    out.set_buffs(&c.buffs[..]).expect(lists);
    out.set_cooldowns(&c.cooldowns[..]).expect(lists);
    out.set_flags(&c.flags[..]).expect(lists);
}

fn update_of_capnp(u: pc::update::Reader<'_>) -> capnp::Result<Update> {
    let mut contacts = Vec::new();
    for c in u.get_contacts()? {
        let h = head_capnp(c)?;
        contacts.push(Contact {
            id: h.id,
            kind: h.kind,
            position: h.position,
            heading: h.heading,
            team: h.team,
            health: h.health,
            shield: h.shield,
            velocity: h.velocity,
            target: h.target,
            buffs: c.get_buffs()?.iter().collect(),
            cooldowns: c.get_cooldowns()?.iter().collect(),
            flags: c.get_flags()?.iter().collect(),
        });
    }
    Ok(Update {
        tick: u.get_tick(),
        server_time_us: u.get_server_time_us(),
        ack: u.get_ack(),
        contacts,
        snapshot: snapshot_capnp(u)?.map(<[u8]>::to_vec),
    })
}

impl Codec<GameState> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &GameState) -> &[u8] {
        self.encode_root::<pc::game_state::Owned>(|root| {
            let mut updates = root.init_updates(data.updates.len() as u32);
            for (i, u) in data.updates.iter().enumerate() {
                let mut out = updates.reborrow().get(i as u32);
                out.set_tick(u.tick);
                out.set_server_time_us(u.server_time_us);
                out.set_ack(u.ack);
                let mut contacts = out.reborrow().init_contacts(u.contacts.len() as u32);
                for (j, c) in u.contacts.iter().enumerate() {
                    set_contact_capnp(contacts.reborrow().get(j as u32), c);
                }
                if let Some(snapshot) = &u.snapshot {
                    out.set_snapshot(snapshot);
                }
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> GameState {
        let decode = || -> capnp::Result<GameState> {
            let message = capnp_message(bytes)?;
            let updates = message
                .get_root::<pc::game_state::Reader<'_>>()?
                .get_updates()?;
            Ok(GameState {
                updates: updates
                    .iter()
                    .map(update_of_capnp)
                    .collect::<capnp::Result<_>>()?,
            })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::game_state::Reader<'_>, read: read_capnp, read_some: some_capnp);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named test on a record: which `Option` is `Some`.
    type Probe<T> = (&'static str, fn(&T) -> bool);

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(GameState::generate(50), GameState::generate(50));
        assert_ne!(GameState::generate(50), GameState::generate(51));
    }

    #[test]
    fn updates_have_the_promised_shape() {
        let state = GameState::generate(GameState::LEN);
        let updates = &state.updates;
        assert_eq!(updates.len(), 1000);
        assert!(updates.windows(2).all(|w| w[0].tick + 1 == w[1].tick));
        let contacts: Vec<&Contact> = updates.iter().flat_map(|u| &u.contacts).collect();
        for u in updates {
            assert!((20..=40).contains(&u.contacts.len()));
        }
        for c in &contacts {
            assert!(c.buffs.len() <= 8 && c.cooldowns.len() <= 8 && c.flags.len() <= 16);
            let mut floats = vec![c.position.x, c.position.y, c.position.z];
            floats.extend(&c.cooldowns);
            floats.extend(c.shield);
            floats.extend(c.velocity.iter().flat_map(|v| [v.x, v.y, v.z]));
            for v in floats {
                assert!(v.is_finite() && v.to_bits() != (-0.0f32).to_bits());
            }
        }
        // About 1 update in 20 has a snapshot of about 1 KB.
        let snapshots: Vec<&Vec<u8>> = updates.iter().filter_map(|u| u.snapshot.as_ref()).collect();
        assert!((30..=75).contains(&snapshots.len()), "{}", snapshots.len());
        assert!(snapshots.iter().all(|s| (1000..=1048).contains(&s.len())));
        // Every option is sometimes there and sometimes not; lists are
        // sometimes empty and sometimes full.
        let share = |is: fn(&Contact) -> bool| {
            contacts.iter().filter(|c| is(c)).count() * 100 / contacts.len()
        };
        let options: [Probe<Contact>; 4] = [
            ("health", |c| c.health.is_some()),
            ("shield", |c| c.shield.is_some()),
            ("velocity", |c| c.velocity.is_some()),
            ("target", |c| c.target.is_some()),
        ];
        for (what, is) in options {
            let share = share(is);
            assert!((5..=95).contains(&share), "{what}: Some in {share}%");
        }
        assert!(contacts.iter().any(|c| c.flags.is_empty()));
        assert!(contacts.iter().any(|c| c.flags.len() == 16));
        assert!(contacts.iter().any(|c| c.buffs.len() == 8));
        assert!(contacts.iter().any(|c| c.cooldowns.is_empty()));
    }
}
