//! `mesh`: 125,000 triangles, each a normal and three vertices of three
//! `f32`s (48 bytes): the all-fixed-size case, where a zerocopy slice of
//! `#[repr(C)]` structs is the physical limit.
//!
//! Vertices are uniform in a 200-unit cube; normals are the triangles' unit
//! normals. `update` (and `update_unchecked`) overwrites every normal (a
//! mesh tool recomputing normals in place). No `read_some`: the sparse read
//! is measured on the data sets with strings and mixed messages (log, order,
//! feed), where skipping fields matters (nor `read_some_lazy`). `read_lazy`
//! reads every triangle through the on-demand view: the list's header, then
//! each triangle's block, each `Vec3` a nested on-demand view.
//!
//! Per format: wiremsg and rkyv encode the model as derived (wiremsg: a
//! strided list of 48-byte inline blocks; rkyv: an archived vector; their
//! codecs, and the serde ones, are `derived_codecs!` in the parent module);
//! FlatBuffers as a vector of structs; capnp as a list of triangles of four
//! `Vec3` structs behind pointers (it has no inline structs: twice wiremsg's
//! size); zerocopy as the triangles back to
//! back; prost as nested messages (hand-written derives, see [`MeshPb`]);
//! postcard and JSON through serde.

use crate::format::Valid;
use prost::encoding::{encoded_len_varint, key_len};
use rkyv::munge::munge;
use rkyv::vec::ArchivedVec;
use zerocopy::little_endian::F32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::{
    Codec, CodecVisitor, Dataset, Rng, Zerocopy, derived_codecs, fb_access_methods, fb_root, ids,
    keep, read_methods, rkyv_root, rkyv_root_mut, visit_formats, wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{Capnp, capnp_methods, message as capnp_message};
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;
use crate::formats::protobuf::{Protobuf, decode_pb, fixed32_len, put_fixed32, put_message_header};

/// A vector of three `f32`s.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct Vec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

/// A triangle: its unit normal and its vertices.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct Triangle {
    /// Unit normal.
    pub normal: Vec3,
    /// First vertex.
    pub v1: Vec3,
    /// Second vertex.
    pub v2: Vec3,
    /// Third vertex.
    pub v3: Vec3,
}

/// The data set: a triangle soup.
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
pub struct Mesh {
    /// The triangles.
    pub triangles: Vec<Triangle>,
}

/// The normal `update` writes (the same into every triangle).
fn new_normal(round: u64) -> Vec3 {
    let r = (round % 1024) as f32;
    Vec3 {
        x: r,
        y: r + 1.0,
        z: r + 2.0,
    }
}

#[inline(always)]
fn fold3(f: &mut Fold, x: f32, y: f32, z: f32) {
    f.u64(u64::from(x.to_bits()));
    f.u64(u64::from(y.to_bits()));
    f.u64(u64::from(z.to_bits()));
}

/// `-0.0` becomes `0.0`: proto3 skips a zero float, and reads it back as
/// `+0.0`, so the data set avoids the one value Protobuf cannot round-trip.
/// The player and game data sets use it too, so that every float of every
/// data set compares equal to itself by bits and by `==`.
pub(super) fn plus_zero(v: f32) -> f32 {
    if v == 0.0 { 0.0 } else { v }
}

fn vertex(rng: &mut Rng) -> Vec3 {
    Vec3 {
        x: plus_zero(rng.f32(-100.0, 100.0)),
        y: plus_zero(rng.f32(-100.0, 100.0)),
        z: plus_zero(rng.f32(-100.0, 100.0)),
    }
}

fn unit_normal(a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let (ux, uy, uz) = (b.x - a.x, b.y - a.y, b.z - a.z);
    let (vx, vy, vz) = (c.x - a.x, c.y - a.y, c.z - a.z);
    let (nx, ny, nz) = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    let len = (nx * nx + ny * ny + nz * nz).sqrt();
    if len < 1e-6 {
        return Vec3 {
            x: 0.0,
            y: 0.0,
            z: 1.0,
        };
    }
    Vec3 {
        x: plus_zero(nx / len),
        y: plus_zero(ny / len),
        z: plus_zero(nz / len),
    }
}

impl Dataset for Mesh {
    const NAME: &'static str = "mesh";
    const LEN: usize = 125_000;

    fn generate(len: usize) -> Self {
        let mut rng = Rng::new(0x6d65_7368_0000_0004);
        let triangles = (0..len)
            .map(|_| {
                let (v1, v2, v3) = (vertex(&mut rng), vertex(&mut rng), vertex(&mut rng));
                Triangle {
                    normal: unit_normal(v1, v2, v3),
                    v1,
                    v2,
                    v3,
                }
            })
            .collect();
        Self { triangles }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.len(self.triangles.len());
        for t in &self.triangles {
            for v in [t.normal, t.v1, t.v2, t.v3] {
                fold3(&mut f, v.x, v.y, v.z);
            }
        }
        f.finish()
    }

    fn apply_update(&mut self, round: u64) {
        let normal = new_normal(round);
        for t in &mut self.triangles {
            t.normal = normal;
        }
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor, Zerocopy);
    }
}

// ---- wiremsg ----

#[inline(always)]
fn fold_vec3_view(f: &mut Fold, v: Vec3View<'_>) {
    fold3(f, v.x(), v.y(), v.z());
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let mesh = unsafe { wiremsg_view::<Mesh, CHECKED>(bytes) };
    let triangles = mesh.triangles();
    let mut f = Fold::new();
    f.len(triangles.len());
    for t in triangles {
        fold_vec3_view(&mut f, t.normal());
        fold_vec3_view(&mut f, t.v1());
        fold_vec3_view(&mut f, t.v2());
        fold_vec3_view(&mut f, t.v3());
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let n = new_normal(round);
    // SAFETY: forwarded from the caller.
    let mut mesh = unsafe { wiremsg_mut::<Mesh, CHECKED>(bytes) };
    let mut triangles = mesh.triangles_mut();
    for i in 0..triangles.len() {
        let mut t = triangles.get_mut(i).expect("wiremsg: index below len");
        let mut normal = t.normal_mut();
        normal.set_x(n.x);
        normal.set_y(n.y);
        normal.set_z(n.z);
    }
}

#[inline(always)]
fn fold_vec3_lazy(f: &mut Fold, v: Vec3Lazy<'_>) -> wiremsg::Result<()> {
    fold3(f, v.x()?, v.y()?, v.z()?);
    Ok(())
}

/// `read_lazy`: the fold of `read`, every field checked as it is read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let mesh = <Mesh as wiremsg::WireMsg>::view_lazy(bytes)?;
    let triangles = mesh.triangles()?;
    let mut f = Fold::new();
    f.len(triangles.len());
    for t in triangles {
        let t = t?;
        fold_vec3_lazy(&mut f, t.normal()?)?;
        fold_vec3_lazy(&mut f, t.v1()?)?;
        fold_vec3_lazy(&mut f, t.v2()?)?;
        fold_vec3_lazy(&mut f, t.v3()?)?;
    }
    Ok(f.finish())
}

// ---- rkyv ----

#[inline(always)]
fn fold_vec3_rkyv(f: &mut Fold, v: &ArchivedVec3) {
    fold3(f, v.x.to_native(), v.y.to_native(), v.z.to_native());
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let mesh = unsafe { rkyv_root::<ArchivedMesh, CHECKED>(bytes) };
    let mut f = Fold::new();
    f.len(mesh.triangles.len());
    for t in mesh.triangles.iter() {
        fold_vec3_rkyv(&mut f, &t.normal);
        fold_vec3_rkyv(&mut f, &t.v1);
        fold_vec3_rkyv(&mut f, &t.v2);
        fold_vec3_rkyv(&mut f, &t.v3);
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let n = new_normal(round);
    // SAFETY: forwarded from the caller.
    let mesh = unsafe { rkyv_root_mut::<ArchivedMesh, CHECKED>(bytes) };
    munge!(let ArchivedMesh { triangles } = mesh);
    let mut triangles = ArchivedVec::as_slice_seal(triangles);
    for i in 0..triangles.len() {
        let t = triangles.as_mut().index(i);
        munge!(let ArchivedTriangle { normal, .. } = t);
        munge!(let ArchivedVec3 { mut x, mut y, mut z } = normal);
        *x = rkyv::Archived::<f32>::from_native(n.x);
        *y = rkyv::Archived::<f32>::from_native(n.y);
        *z = rkyv::Archived::<f32>::from_native(n.z);
    }
}

derived_codecs!(
    Mesh,
    ArchivedMesh,
    read: (read_wiremsg, read_rkyv),
    update: (update_wiremsg, update_rkyv),
    read_lazy: read_lazy_wiremsg,
);

// ---- capnp ----

/// A capnp `Vec3` as the model's vector (also the game data set's positions).
#[inline(always)]
pub(crate) fn vec3_of_capnp(v: pc::vec3::Reader<'_>) -> Vec3 {
    Vec3 {
        x: v.get_x(),
        y: v.get_y(),
        z: v.get_z(),
    }
}

/// Writes `v` into a capnp `Vec3`.
pub(crate) fn set_capnp_vec3(mut out: pc::vec3::Builder<'_>, v: &Vec3) {
    out.set_x(v.x);
    out.set_y(v.y);
    out.set_z(v.z);
}

/// `read`: every vector, each triangle's four pointers checked as they are
/// followed.
#[inline(always)]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let triangles = message
        .get_root::<pc::mesh::Reader<'_>>()?
        .get_triangles()?;
    let mut f = Fold::new();
    f.len(triangles.len() as usize);
    for t in triangles {
        for v in [t.get_normal()?, t.get_v1()?, t.get_v2()?, t.get_v3()?] {
            fold3(&mut f, v.get_x(), v.get_y(), v.get_z());
        }
    }
    Ok(f.finish())
}

impl Codec<Mesh> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &Mesh) -> &[u8] {
        self.encode_root::<pc::mesh::Owned>(|root| {
            let mut triangles = root.init_triangles(data.triangles.len() as u32);
            for (i, t) in data.triangles.iter().enumerate() {
                let mut out = triangles.reborrow().get(i as u32);
                set_capnp_vec3(out.reborrow().init_normal(), &t.normal);
                set_capnp_vec3(out.reborrow().init_v1(), &t.v1);
                set_capnp_vec3(out.reborrow().init_v2(), &t.v2);
                set_capnp_vec3(out.init_v3(), &t.v3);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> Mesh {
        let decode = || -> capnp::Result<Mesh> {
            let message = capnp_message(bytes)?;
            let triangles = message
                .get_root::<pc::mesh::Reader<'_>>()?
                .get_triangles()?;
            let mut out = Vec::with_capacity(triangles.len() as usize);
            for t in triangles {
                out.push(Triangle {
                    normal: vec3_of_capnp(t.get_normal()?),
                    v1: vec3_of_capnp(t.get_v1()?),
                    v2: vec3_of_capnp(t.get_v2()?),
                    v3: vec3_of_capnp(t.get_v3()?),
                });
            }
            Ok(Mesh { triangles: out })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::mesh::Reader<'_>, read: read_capnp);
}

// ---- FlatBuffers ----

/// The FlatBuffers struct of `v` (also the game data set's positions).
pub(crate) fn fb_vec3(v: &Vec3) -> fb::Vec3 {
    fb::Vec3::new(v.x, v.y, v.z)
}

/// `v` as the model's vector.
pub(crate) fn vec3_of_fb(v: &fb::Vec3) -> Vec3 {
    Vec3 {
        x: v.x(),
        y: v.y(),
        z: v.z(),
    }
}

#[inline(always)]
fn fold_vec3_fb(f: &mut Fold, v: &fb::Vec3) {
    fold3(f, v.x(), v.y(), v.z());
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let mesh = unsafe { fb_root::<fb::Mesh<'_>, CHECKED>(bytes) };
    let triangles = mesh.triangles();
    let mut f = Fold::new();
    f.len(triangles.len());
    for t in triangles {
        fold_vec3_fb(&mut f, t.normal());
        fold_vec3_fb(&mut f, t.v1());
        fold_vec3_fb(&mut f, t.v2());
        fold_vec3_fb(&mut f, t.v3());
    }
    f.finish()
}

impl Codec<Mesh> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &Mesh) -> &[u8] {
        let b = &mut self.builder;
        b.reset();
        let triangles = b.create_vector_from_iter(data.triangles.iter().map(|t| {
            fb::Triangle::new(
                &fb_vec3(&t.normal),
                &fb_vec3(&t.v1),
                &fb_vec3(&t.v2),
                &fb_vec3(&t.v3),
            )
        }));
        let root = fb::Mesh::create(
            b,
            &fb::MeshArgs {
                triangles: Some(triangles),
            },
        );
        b.finish_minimal(root);
        b.finished_data()
    }

    fn decode(&self, bytes: &[u8]) -> Mesh {
        let mesh = root::<fb::Mesh<'_>>(bytes);
        Mesh {
            triangles: mesh
                .triangles()
                .iter()
                .map(|t| Triangle {
                    normal: vec3_of_fb(t.normal()),
                    v1: vec3_of_fb(t.v1()),
                    v2: vec3_of_fb(t.v2()),
                    v3: vec3_of_fb(t.v3()),
                })
                .collect(),
        }
    }

    fb_access_methods!(fb::Mesh<'_>);

    read_methods!(read_fb);
}

// ---- zerocopy ----

/// A [`Vec3`] as a zerocopy struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Vec3Zc {
    /// x.
    pub x: F32,
    /// y.
    pub y: F32,
    /// z.
    pub z: F32,
}

/// A [`Triangle`] as a zerocopy struct (48 bytes); the encoding of the mesh
/// is these back to back, the count being the length over 48.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TriangleZc {
    /// Unit normal.
    pub normal: Vec3Zc,
    /// First vertex.
    pub v1: Vec3Zc,
    /// Second vertex.
    pub v2: Vec3Zc,
    /// Third vertex.
    pub v3: Vec3Zc,
}

fn zc_vec3(v: &Vec3) -> Vec3Zc {
    Vec3Zc {
        x: v.x.into(),
        y: v.y.into(),
        z: v.z.into(),
    }
}

fn vec3_of_zc(v: &Vec3Zc) -> Vec3 {
    Vec3 {
        x: v.x.get(),
        y: v.y.get(),
        z: v.z.get(),
    }
}

#[inline(always)]
fn fold_vec3_zc(f: &mut Fold, v: &Vec3Zc) {
    fold3(f, v.x.get(), v.y.get(), v.z.get());
}

fn zc(bytes: &[u8]) -> &[TriangleZc] {
    <[TriangleZc]>::ref_from_bytes(bytes).valid("zerocopy")
}

impl Codec<Mesh> for Zerocopy {
    const ID: &'static str = ids::ZEROCOPY;

    fn encode(&mut self, data: &Mesh) -> &[u8] {
        self.buf.clear();
        for t in &data.triangles {
            let zc = TriangleZc {
                normal: zc_vec3(&t.normal),
                v1: zc_vec3(&t.v1),
                v2: zc_vec3(&t.v2),
                v3: zc_vec3(&t.v3),
            };
            self.buf.extend_from_slice(zc.as_bytes());
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Mesh {
        Mesh {
            triangles: zc(bytes)
                .iter()
                .map(|t| Triangle {
                    normal: vec3_of_zc(&t.normal),
                    v1: vec3_of_zc(&t.v1),
                    v2: vec3_of_zc(&t.v2),
                    v3: vec3_of_zc(&t.v3),
                })
                .collect(),
        }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        keep(zc(bytes))
    }

    fn read(&self, bytes: &[u8]) -> Option<u64> {
        let triangles = zc(bytes);
        let mut f = Fold::new();
        f.len(triangles.len());
        for t in triangles {
            fold_vec3_zc(&mut f, &t.normal);
            fold_vec3_zc(&mut f, &t.v1);
            fold_vec3_zc(&mut f, &t.v2);
            fold_vec3_zc(&mut f, &t.v3);
        }
        Some(f.finish())
    }

    fn update(&self, bytes: &mut [u8], round: u64) -> Option<()> {
        let n = new_normal(round);
        let triangles = <[TriangleZc]>::mut_from_bytes(bytes).valid("zerocopy");
        for t in triangles {
            t.normal = zc_vec3(&n);
        }
        Some(())
    }
}

// ---- prost ----

/// `message Vec3 { float x = 1; float y = 2; float z = 3; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Vec3Pb {
    /// x.
    #[prost(float, tag = "1")]
    pub x: f32,
    /// y.
    #[prost(float, tag = "2")]
    pub y: f32,
    /// z.
    #[prost(float, tag = "3")]
    pub z: f32,
}

/// `message Triangle { Vec3 normal = 1; Vec3 v1 = 2; Vec3 v2 = 3; Vec3 v3 = 4; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrianglePb {
    /// Unit normal.
    #[prost(message, optional, tag = "1")]
    pub normal: Option<Vec3Pb>,
    /// First vertex.
    #[prost(message, optional, tag = "2")]
    pub v1: Option<Vec3Pb>,
    /// Second vertex.
    #[prost(message, optional, tag = "3")]
    pub v2: Option<Vec3Pb>,
    /// Third vertex.
    #[prost(message, optional, tag = "4")]
    pub v3: Option<Vec3Pb>,
}

/// `message Mesh { repeated Triangle triangles = 1; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MeshPb {
    /// Triangles.
    #[prost(message, repeated, tag = "1")]
    pub triangles: Vec<TrianglePb>,
}

fn vec3_pb_len(v: &Vec3) -> usize {
    fixed32_len(1, v.x == 0.0) + fixed32_len(2, v.y == 0.0) + fixed32_len(3, v.z == 0.0)
}

/// A present (possibly empty) nested message field: key, length, body.
fn nested_len(tag: u32, body: usize) -> usize {
    key_len(tag) + encoded_len_varint(body as u64) + body
}

fn triangle_pb_len(t: &Triangle) -> usize {
    nested_len(1, vec3_pb_len(&t.normal))
        + nested_len(2, vec3_pb_len(&t.v1))
        + nested_len(3, vec3_pb_len(&t.v2))
        + nested_len(4, vec3_pb_len(&t.v3))
}

fn put_vec3(tag: u32, v: &Vec3, buf: &mut Vec<u8>) {
    put_message_header(tag, vec3_pb_len(v), buf);
    put_fixed32(1, v.x.to_bits(), v.x == 0.0, buf);
    put_fixed32(2, v.y.to_bits(), v.y == 0.0, buf);
    put_fixed32(3, v.z.to_bits(), v.z == 0.0, buf);
}

fn encode_pb(data: &Mesh, buf: &mut Vec<u8>) {
    for t in &data.triangles {
        put_message_header(1, triangle_pb_len(t), buf);
        put_vec3(1, &t.normal, buf);
        put_vec3(2, &t.v1, buf);
        put_vec3(3, &t.v2, buf);
        put_vec3(4, &t.v3, buf);
    }
}

fn vec3_of_pb(v: Option<Vec3Pb>) -> Vec3 {
    // proto3: an absent message reads as its default.
    let v = v.unwrap_or_default();
    Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

impl Codec<Mesh> for Protobuf {
    const ID: &'static str = ids::PROST;

    fn encode(&mut self, data: &Mesh) -> &[u8] {
        self.buf.clear();
        encode_pb(data, &mut self.buf);
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Mesh {
        let mesh: MeshPb = decode_pb(bytes);
        Mesh {
            triangles: mesh
                .triangles
                .into_iter()
                .map(|t| Triangle {
                    normal: vec3_of_pb(t.normal),
                    v1: vec3_of_pb(t.v1),
                    v2: vec3_of_pb(t.v2),
                    v3: vec3_of_pb(t.v3),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use prost::Message as _;
    use wiremsg::WireMsg;

    use super::*;
    use crate::formats::wiremsg::Wiremsg;

    #[test]
    fn zerocopy_triangles_are_wiremsg_elements() {
        let mesh = Mesh::generate(20);
        assert_eq!(size_of::<TriangleZc>(), 48);
        assert_eq!(Triangle::BLOCK_LENGTH, 48);
        let zc = Codec::<Mesh>::encode(&mut Zerocopy::default(), &mesh).to_vec();
        let wm = Codec::<Mesh>::encode(&mut Wiremsg::default(), &mesh).to_vec();
        // wiremsg: u16 block length, u32 end offset, u16 stride, then the
        // same 48-byte blocks.
        assert_eq!(&wm[8..], &zc[..]);
    }

    #[test]
    fn normals_are_unit_and_values_round_trip_in_proto3() {
        let mesh = Mesh::generate(1000);
        for t in &mesh.triangles {
            let n = t.normal;
            let len = (n.x * n.x + n.y * n.y + n.z * n.z).sqrt();
            assert!((len - 1.0).abs() < 1e-3, "{n:?}");
            for v in [t.normal, t.v1, t.v2, t.v3] {
                for c in [v.x, v.y, v.z] {
                    assert!(c.to_bits() != (-0.0f32).to_bits() && c.is_finite());
                }
            }
        }
    }

    #[test]
    fn hand_encoding_matches_derived_encoding() {
        let mut mesh = Mesh::generate(30);
        mesh.triangles[3].v2.y = 0.0; // a skipped default field
        let pb_vec = |v: &Vec3| {
            Some(Vec3Pb {
                x: v.x,
                y: v.y,
                z: v.z,
            })
        };
        let pb = MeshPb {
            triangles: mesh
                .triangles
                .iter()
                .map(|t| TrianglePb {
                    normal: pb_vec(&t.normal),
                    v1: pb_vec(&t.v1),
                    v2: pb_vec(&t.v2),
                    v3: pb_vec(&t.v3),
                })
                .collect(),
        };
        let mut buf = Vec::new();
        encode_pb(&mesh, &mut buf);
        assert_eq!(buf, pb.encode_to_vec());
    }
}
