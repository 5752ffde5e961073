//! Properties: no input panics; generated dtypes in many spellings round-trip.

use b2nd_meta::dtype::{Dtype, Kind};
use proptest::prelude::*;

use crate::numpy::expectations;
use crate::{at, parse};

/// If a string parses, its Display parses back to a dtype with the same
/// Display (NumPy's own lossy cases keep the string, not always the dtype).
fn check_display_is_fixed_point(input: &str) -> Result<(), TestCaseError> {
    if let Ok(dt) = Dtype::parse(input) {
        let text = dt.to_string();
        let again = Dtype::parse(&text)
            .map_err(|e| TestCaseError::fail(format!("{input:?} -> {text:?}: {e}")))?;
        prop_assert_eq!(again.to_string(), text);
    } else if let Err(err) = Dtype::parse(input) {
        prop_assert!(at(&err) <= input.len());
        prop_assert!(input.is_char_boundary(at(&err)));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(input in any::<String>()) {
        check_display_is_fixed_point(&input)?;
    }

    #[test]
    fn dtype_like_strings_never_panic(input in "[\\[\\](){}',:\" <>|=?0-9a-fiuSUVOMmnsT_\\\\x.+-]{0,48}") {
        check_display_is_fixed_point(&input)?;
    }

    #[test]
    fn mutated_valid_strings_never_panic(
        row in 0..expectations().table.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..4),
    ) {
        let mut chars: Vec<char> = expectations().table[row].canonical.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        let input: String = chars.into_iter().collect();
        check_display_is_fixed_point(&input)?;
    }
}

/// A generated dtype description, rendered in many input syntaxes.
#[derive(Clone, Debug)]
enum Gen {
    /// Input spellings of one scalar, its itemsize, and whether it may be a
    /// subarray element (not an unsized S/U/V).
    Scalar(&'static [&'static str], u64, bool),
    Sub(Box<Gen>, Vec<u64>),
    List(Vec<GenField>),
    Dict(Vec<GenField>, DictLayout),
}

#[derive(Clone, Debug)]
struct GenField {
    name: String,
    title: Option<String>,
    dtype: Gen,
    shape: Vec<u64>,
}

#[derive(Clone, Debug)]
enum DictLayout {
    Packed,
    /// Gap before each field, and extra bytes at the end.
    Offsets(Vec<u64>, u64),
}

const SCALARS: &[(&[&str], u64, bool)] = &[
    (&["<i4", "i4", "=i4", "int32", "i", "intc"], 4, true),
    (&[">i2", ">h"], 2, true),
    (&["|u1", "u1", "uint8", "B", ">u1"], 1, true),
    (&["<u8", "uint64", "Q"], 8, true),
    (&["|b1", "b1", "?", "bool", "bool_"], 1, true),
    (&["<f2", "e", "float16", "half"], 2, true),
    (&["<f8", "f8", "float64", "d", "double", "float"], 8, true),
    (&[">f4"], 4, true),
    (&["<c16", "complex128", "D"], 16, true),
    (&["|S5", "S5", "a5"], 5, true),
    (&["|S0", "S", "bytes"], 0, false),
    (&["<U3", "U3"], 12, true),
    (&[">U1"], 4, true),
    (&["<U0", "U", "str"], 0, false),
    (&["|V8", "V8"], 8, true),
    (&["|O", "O", "object"], 8, true),
    (&["<M8[ns]", "M8[ns]", "datetime64[ns]"], 8, true),
    (&[">m8[10s]"], 8, true),
    (&["<M8", "M8", "M", "datetime64"], 8, true),
];

fn gen_scalar() -> impl Strategy<Value = Gen> {
    prop::sample::select(SCALARS).prop_map(|(names, size, sized)| Gen::Scalar(names, size, sized))
}

fn gen_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}",
        any::<String>().prop_filter("non-empty", |s| !s.is_empty()),
        Just(String::from("it's")),
        Just(String::from("say \"hi\"")),
        Just(String::from("both ' and \"")),
        Just(String::from("back\\slash")),
    ]
}

fn gen_dtype() -> impl Strategy<Value = Gen> {
    gen_scalar().prop_recursive(3, 24, 4, |inner| {
        let field = (
            gen_name(),
            proptest::option::of(gen_name()),
            inner.clone(),
            proptest::collection::vec(0u64..4, 0..3),
        )
            .prop_map(|(name, title, dtype, shape)| GenField {
                name,
                title,
                dtype,
                shape,
            })
            .boxed();
        prop_oneof![
            (inner.clone(), proptest::collection::vec(1u64..4, 1..3))
                .prop_filter("sized element", |(g, _)| is_sized(g))
                .prop_map(|(g, shape)| Gen::Sub(Box::new(g), shape)),
            proptest::collection::vec(field.clone(), 0..4).prop_map(|f| Gen::List(uniquify(f))),
            (
                proptest::collection::vec(field, 0..4),
                proptest::collection::vec(0u64..3, 5),
                0u64..3,
                any::<bool>()
            )
                .prop_map(|(f, gaps, extra, packed)| {
                    let f = uniquify(f);
                    let layout = if packed {
                        DictLayout::Packed
                    } else {
                        DictLayout::Offsets(gaps[..f.len()].to_vec(), extra)
                    };
                    Gen::Dict(f, layout)
                }),
        ]
    })
}

/// Whether `g` may be a subarray element: NumPy refuses dtypes of size 0
/// other than structs.
fn is_sized(g: &Gen) -> bool {
    match g {
        Gen::Scalar(_, _, sized) => *sized,
        Gen::Sub(..) => gen_itemsize(g) > 0,
        Gen::List(_) | Gen::Dict(..) => true,
    }
}

/// Makes names and titles distinct from each other: NumPy requires it.
fn uniquify(mut fields: Vec<GenField>) -> Vec<GenField> {
    for (i, f) in fields.iter_mut().enumerate() {
        f.name = format!("{}#n{i}", f.name);
        if let Some(t) = &mut f.title {
            *t = format!("{t}#t{i}");
        }
        // A field shape with an unsized element is invalid, as in NumPy.
        if !is_sized(&f.dtype) {
            f.shape.clear();
        }
    }
    fields
}

fn gen_itemsize(g: &Gen) -> u64 {
    match g {
        Gen::Scalar(_, size, _) => *size,
        Gen::Sub(base, shape) => gen_itemsize(base) * shape.iter().product::<u64>(),
        Gen::List(fields) => fields.iter().map(field_size).sum(),
        Gen::Dict(fields, DictLayout::Packed) => fields.iter().map(field_size).sum(),
        Gen::Dict(fields, DictLayout::Offsets(gaps, extra)) => {
            fields
                .iter()
                .zip(gaps)
                .map(|(f, g)| field_size(f) + g)
                .sum::<u64>()
                + extra
        }
    }
}

fn field_size(f: &GenField) -> u64 {
    gen_itemsize(&f.dtype) * f.shape.iter().product::<u64>()
}

/// Python-literal string with every non-alphanumeric character escaped, to
/// exercise escape decoding.
fn py_escaped(s: &str, pick: usize) -> String {
    let quote = if pick.is_multiple_of(2) { '\'' } else { '"' };
    let mut out = String::from(quote);
    for c in s.chars() {
        let cp = u32::from(c);
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if cp < 0x100 {
            out.push_str(&format!("\\x{cp:02x}"));
        } else if cp < 0x10000 {
            out.push_str(&format!("\\u{cp:04X}"));
        } else {
            out.push_str(&format!("\\U{cp:08x}"));
        }
    }
    out.push(quote);
    out
}

fn render_shape(shape: &[u64], pick: usize) -> String {
    let items: Vec<String> = shape.iter().map(u64::to_string).collect();
    match (pick % 3, shape.len()) {
        (_, 0) => String::from("()"),
        (0, 1) => items[0].clone(),
        (1, _) => format!("[{}]", items.join(", ")),
        _ => format!("({},)", items.join(" ,")),
    }
}

fn render(g: &Gen, pick: usize) -> String {
    match g {
        Gen::Scalar(names, _, _) => {
            let name = names[pick % names.len()];
            if pick.is_multiple_of(2) {
                format!("'{name}'")
            } else {
                format!("\"{name}\"")
            }
        }
        Gen::Sub(base, shape) => format!(
            "({}, {})",
            render(base, pick / 2),
            render_shape(shape, pick)
        ),
        Gen::List(fields) => {
            let items: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let p = pick.wrapping_add(i * 7);
                    let name = match &f.title {
                        Some(t) => {
                            format!("({}, {})", py_escaped(t, p), py_escaped(&f.name, p / 2))
                        }
                        None => py_escaped(&f.name, p),
                    };
                    let fmt = render(&f.dtype, p / 3);
                    if f.shape.is_empty() && (p.is_multiple_of(2) || !is_sized(&f.dtype)) {
                        format!("({name}, {fmt})")
                    } else {
                        format!("({name},{fmt},{})", render_shape(&f.shape, p))
                    }
                })
                .collect();
            if pick.is_multiple_of(2) || items.is_empty() {
                format!("[{}]", items.join(", "))
            } else {
                format!("[\n {},\n]", items.join(",\n "))
            }
        }
        Gen::Dict(fields, layout) => {
            let names: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, f)| py_escaped(&f.name, pick + i))
                .collect();
            let formats: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let fmt = render(&f.dtype, pick.wrapping_add(i * 5));
                    if f.shape.is_empty() {
                        fmt
                    } else {
                        format!("({fmt}, {})", render_shape(&f.shape, pick))
                    }
                })
                .collect();
            let mut out = format!(
                "{{'names': [{}], 'formats': [{}]",
                names.join(", "),
                formats.join(", ")
            );
            if fields.iter().any(|f| f.title.is_some()) {
                let titles: Vec<String> = fields
                    .iter()
                    .map(|f| {
                        f.title
                            .as_deref()
                            .map_or(String::from("None"), |t| py_escaped(t, pick))
                    })
                    .collect();
                out.push_str(&format!(", 'titles': [{}]", titles.join(", ")));
            }
            if let DictLayout::Offsets(gaps, extra) = layout {
                let mut offsets = Vec::new();
                let mut at = 0;
                for (f, gap) in fields.iter().zip(gaps) {
                    at += gap;
                    offsets.push(at.to_string());
                    at += field_size(f);
                }
                out.push_str(&format!(
                    ", 'offsets': [{}], 'itemsize': {}",
                    offsets.join(", "),
                    at + extra
                ));
            }
            out.push('}');
            out
        }
    }
}

/// Whether no scalar inside `dt` prints with '=' (it is always resolved).
fn no_native_order(dt: &Dtype) -> bool {
    if let Some(fields) = dt.fields() {
        fields.iter().all(|f| no_native_order(f.dtype()))
    } else if let Some((base, _)) = dt.subarray() {
        no_native_order(base)
    } else {
        !dt.to_string().starts_with('=')
    }
}

fn check_fields(dt: &Dtype, fields: &[GenField]) -> Result<(), TestCaseError> {
    let got = dt
        .fields()
        .ok_or_else(|| TestCaseError::fail("no fields"))?;
    prop_assert_eq!(got.len(), fields.len());
    for (g, f) in got.iter().zip(fields) {
        prop_assert_eq!(g.name(), f.name.as_str());
        prop_assert_eq!(g.title(), f.title.as_deref());
        let want_shape: &[u64] = match (&f.dtype, f.shape.is_empty()) {
            (Gen::Sub(_, inner), true) => inner,
            _ => &f.shape,
        };
        prop_assert_eq!(g.shape(), want_shape);
        prop_assert_eq!(g.dtype().itemsize(), field_size(f));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn generated_dtypes_round_trip(g in gen_dtype(), pick in 0usize..1000) {
        let input = render(&g, pick);
        let dt = Dtype::parse(&input).map_err(|e| TestCaseError::fail(format!("{input:?}: {e}")))?;
        prop_assert_eq!(dt.itemsize(), gen_itemsize(&g), "itemsize of {:?}", input);
        match &g {
            Gen::List(fields) | Gen::Dict(fields, _) => {
                prop_assert_eq!(dt.kind(), Kind::Struct);
                check_fields(&dt, fields)?;
            }
            Gen::Sub(_, shape) => prop_assert_eq!(dt.subarray().map(|(_, s)| s.to_vec()), Some(shape.clone())),
            Gen::Scalar(names, _, _) => prop_assert_eq!(&dt, &parse(names[0])),
        }
        let text = dt.to_string();
        prop_assert!(no_native_order(&dt), "native order in {:?}", text);
        let again = Dtype::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&again, &dt, "{:?} -> {:?}", input, text);
        prop_assert_eq!(again.to_string(), text);
        // Serde goes through the same string.
        let json = serde_json::to_string(&dt).unwrap();
        let from_json: Dtype = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(from_json, dt);
    }

    #[test]
    fn aligned_top_level_dicts_round_trip(fields in proptest::collection::vec((gen_name(), gen_scalar()), 0..5)) {
        let fields: Vec<GenField> = uniquify(fields.into_iter().map(|(name, dtype)| GenField { name, title: None, dtype, shape: vec![] }).collect());
        let names: Vec<String> = fields.iter().map(|f| py_escaped(&f.name, 0)).collect();
        let formats: Vec<String> = fields.iter().map(|f| render(&f.dtype, 1)).collect();
        let input = format!("{{'names': [{}], 'formats': [{}], 'aligned': True}}", names.join(", "), formats.join(", "));
        let dt = Dtype::parse(&input).map_err(|e| TestCaseError::fail(format!("{input:?}: {e}")))?;
        prop_assert!(dt.is_aligned_struct());
        let text = dt.to_string();
        prop_assert!(text.ends_with(", 'aligned': True}"), "{:?}", text);
        let again = Dtype::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&again, &dt);
    }
}
