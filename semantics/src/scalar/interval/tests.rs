//! Unit tests of the enclosures: containment of exact rationals, of independent 60-digit
//! reference values (specs/ball/reference.py, Python's `decimal`), shrinking with the
//! precision, and the undecided events.

use super::*;
use num_bigint::BigInt;

fn rat1() -> Rat {
    q(1, 1)
}

fn q(p: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(p), BigInt::from(d))
}

fn lit(s: &str) -> Rat {
    match s.split_once('/') {
        Some((a, b)) => Rat::new(a.parse().unwrap(), b.parse().unwrap()),
        None => dec(s),
    }
}

/// A decimal string (`1.5`, `4.2e-18`) as an exact rational.
fn dec(s: &str) -> Rat {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let e: i64 = e.parse().unwrap();
    let (neg, m) = m.strip_prefix('-').map_or((false, m), |m| (true, m));
    let (i, f) = m.split_once('.').unwrap_or((m, ""));
    let digits: BigInt = format!("{i}{f}").parse().unwrap();
    let k = e - f.len() as i64;
    let ten = BigInt::from(10);
    let mut r = if k >= 0 {
        Rat::from_integer(digits * num_traits::pow(ten, k as usize))
    } else {
        Rat::new(digits, num_traits::pow(ten, (-k) as usize))
    };
    if neg {
        r = -r;
    }
    r
}

fn at(p: usize, x: &Rat) -> Interval {
    Interval::of_rational(x, p)
}

#[test]
fn representable_rationals_enter_exactly() {
    for r in [q(3, 4), q(5, 1), q(-1, 1024), q(0, 1), q(1 << 40, 3 << 2)] {
        let x = at(128, &r);
        if r.denom().magnitude().count_ones() == 1 {
            assert!(x.is_point(), "{r} should be a point, got {x:?}");
        }
        assert!(x.contains(&r));
    }
    let third = at(64, &q(1, 3));
    assert!(!third.is_point());
    assert!(third.lo() < q(1, 3) && q(1, 3) < third.hi());
    // One ulp at 64 bits: 2^-65 for a number in [1/4, 1/2).
    assert_eq!(
        third.width(),
        Rat::new(BigInt::from(1), BigInt::from(1) << 65)
    );
}

#[test]
fn arithmetic_contains_exact_results() {
    let _s = PrecisionScope::new(64);
    let xs = [
        q(1, 3),
        q(-22, 7),
        q(355, 113),
        q(1, 10),
        q(-7, 1),
        q(123456789, 1000),
    ];
    for a in &xs {
        for b in &xs {
            let (x, y) = (Interval::from_rational(a), Interval::from_rational(b));
            assert!(x.add(&y).contains(&(a + b)), "{a} + {b}");
            assert!(x.sub(&y).contains(&(a - b)), "{a} - {b}");
            assert!(x.mul(&y).contains(&(a * b)), "{a} * {b}");
            assert!(x.checked_div(&y).unwrap().contains(&(a / b)), "{a} / {b}");
            assert!(x.neg().contains(&-a));
            assert!(x.abs().contains(&num_traits::Signed::abs(a)));
        }
    }
    assert_eq!(Interval::one().checked_div(&Interval::zero()), None);
    assert!(Interval::take_undecided().is_none());
}

/// Reference values: 60 significant digits from specs/ball/reference.py (`units`).
const REFERENCE: &[(&str, &str, &str)] = &[
    (
        "exp",
        "1/3",
        "1.39561242508608952862812531960258683759790651519940698261752",
    ),
    (
        "exp",
        "-5/2",
        "0.0820849986238987951695286744671598078378041210154366488457584",
    ),
    (
        "exp",
        "10",
        "22026.4657948067165169579006452842443663535126185567810742354",
    ),
    (
        "exp",
        "1/1024",
        "1.00097703949241653524284529261160650646585162918174419940186",
    ),
    (
        "exp",
        "-40",
        "4.24835425529158899532923478285865801787956555416644628805082e-18",
    ),
    (
        "log",
        "2",
        "0.693147180559945309417232121458176568075500134360255254120680",
    ),
    (
        "log",
        "1/3",
        "-1.09861228866810969139524523692252570464749055782274945173469",
    ),
    (
        "log",
        "1000000",
        "13.8155105579642741041079487281061852456066089317726378562000",
    ),
    (
        "log",
        "7/5",
        "0.336472236621212930504593410216992090111483375313343466546742",
    ),
    (
        "sin",
        "1",
        "0.841470984807896506652502321630298999622563060798371065672752",
    ),
    (
        "sin",
        "22/7",
        "-0.00126448893037735340036035047564593249177391139119760339251697",
    ),
    (
        "sin",
        "100",
        "-0.506365641109758793656557610459785432065032721290657323443392",
    ),
    (
        "sin",
        "-1/7",
        "-0.142371729792263667165272320706231170786867099759364061013619",
    ),
    (
        "sin",
        "1000000",
        "-0.349993502171292952117652486780771469061406605328716273857059",
    ),
    (
        "cos",
        "1",
        "0.540302305868139717400936607442976603732310420617922227670097",
    ),
    (
        "cos",
        "22/7",
        "-0.999999200533552903268335739656574951575828820661096490675543",
    ),
    (
        "cos",
        "100",
        "0.862318872287683934101938513950842535510084008535510829280162",
    ),
    (
        "cos",
        "-1/7",
        "0.989813260446615082695726137013433745874032700899571417631810",
    ),
    (
        "cos",
        "1000000",
        "0.936752127533144786938532535074918775708097804212365879720578",
    ),
    (
        "tanh",
        "1/2",
        "0.462117157260009758502318483643672548730289280330113038552732",
    ),
    (
        "tanh",
        "-3",
        "-0.995054753686730451331880185255488475097813854700282491823879",
    ),
    (
        "tanh",
        "20",
        "0.999999999999999991503291489416822045438558191190987257130475",
    ),
    (
        "tanh",
        "1/1000",
        "0.000999999666666799999946031767901225704669296792285404388658514",
    ),
    (
        "sqrt",
        "2",
        "1.41421356237309504880168872420969807856967187537694807317668",
    ),
    (
        "sqrt",
        "1/3",
        "0.577350269189625764509148780501957455647601751270126876018602",
    ),
    (
        "sqrt",
        "10000000001",
        "100000.000004999999999875000000006249999999609375000027343750",
    ),
    ("sqrt", "9/4", "1.5"),
];

fn fun(name: &str) -> Transcendental {
    use Transcendental::*;
    [Exp, Log, Sin, Cos, Tanh, Sqrt]
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap()
}

#[test]
fn elementary_functions_contain_decimal_references() {
    for p in [128, 256] {
        let _s = PrecisionScope::new(p);
        for (name, x, v) in REFERENCE {
            let y = Interval::from_rational(&lit(x))
                .transcendental(fun(name))
                .unwrap();
            let v = dec(v);
            // The reference has 60 significant digits: the true value is within 1e-59 |v|.
            let slack = num_traits::Signed::abs(&v) * dec("1e-59");
            let near = Interval::from_bounds(&(&v - &slack), &(&v + &slack), 512);
            assert!(
                y.overlaps(&near),
                "{name}({x}) at {p} bits: {y:?} misses {v}"
            );
            // Narrow: a few ulps of the working precision, relative.
            let ulp = Rat::new(BigInt::from(1), BigInt::from(1) << (p - 4));
            assert!(
                y.width() <= ulp * num_traits::Signed::abs(&v).max(rat1()),
                "{name}({x}): {y:?}"
            );
        }
        assert!(Interval::take_undecided().is_none());
    }
}

#[test]
fn width_shrinks_with_precision() {
    for (name, x, _) in REFERENCE {
        let w = |p| {
            let _s = PrecisionScope::new(p);
            Interval::from_rational(&lit(x))
                .transcendental(fun(name))
                .unwrap()
        };
        let (a, b) = (w(128), w(512));
        assert!(b.width() <= a.width(), "{name}({x})");
        assert!(a.overlaps(&b));
    }
}

#[test]
fn sin_and_cos_reach_their_extrema_inside() {
    let s = Interval::from_bounds(&q(1, 1), &q(2, 1), 128).transcendental(Transcendental::Sin);
    assert_eq!(s.unwrap().hi(), rat1());
    let c = Interval::from_bounds(&q(3, 1), &q(7, 2), 128).transcendental(Transcendental::Cos);
    assert_eq!(c.unwrap().lo(), -rat1());
    let w = Interval::from_bounds(&q(0, 1), &q(10, 1), 128).transcendental(Transcendental::Sin);
    let w = w.unwrap();
    assert_eq!((w.lo(), w.hi()), (-rat1(), rat1()));
    // No extremum inside: both ends bound it, below 1.
    let m = Interval::from_bounds(&q(0, 1), &q(1, 1), 128).transcendental(Transcendental::Sin);
    assert!(m.unwrap().hi() < q(85, 100));
}

#[test]
fn undecided_operations_are_recorded_not_guessed() {
    let _ = Interval::take_undecided();
    let x = Interval::from_bounds(&q(0, 1), &q(1, 1), 128);
    let half = Interval::from_rational(&q(1, 2));
    assert_eq!(x.compare(&half), None);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Undecidable(_))
    ));
    assert!(
        Interval::take_undecided().is_none(),
        "taking clears the event"
    );
    assert_eq!(
        half.compare(&Interval::from_rational(&q(1, 2))),
        Some(Ordering::Equal)
    );
    assert_eq!(half.compare(&Interval::one()), Some(Ordering::Less));
    let straddle = Interval::from_bounds(&q(-1, 1), &q(1, 1), 128);
    let _ = Interval::one().checked_div(&straddle);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Undecidable(_))
    ));
    let _ = Interval::from_rational(&q(-2, 1)).transcendental(Transcendental::Log);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Domain(_))
    ));
    let _ = Interval::zero().transcendental(Transcendental::Log);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Domain(_))
    ));
    let _ = straddle.transcendental(Transcendental::Sqrt);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Undecidable(_))
    ));
    assert_eq!(
        Interval::zero().transcendental(Transcendental::Sqrt),
        Ok(Interval::zero())
    );
    assert!(Interval::take_undecided().is_none());
    assert_eq!(
        Interval::from_bounds(&q(1, 2), &q(3, 4), 128).floor_i64(),
        Some(0)
    );
    assert_eq!(x.floor_i64(), None);
    assert!(matches!(
        Interval::take_undecided(),
        Some(Undecided::Undecidable(_))
    ));
    // `abs` is continuous: no decision needed.
    assert_eq!(straddle.abs().lo(), Rat::from_integer(0.into()));
    assert!(Interval::take_undecided().is_none());
}

#[test]
fn json_reports_bounds_and_digits() {
    let _s = PrecisionScope::new(128);
    let x = Interval::from_rational(&q(1, 3));
    let j = x.to_json();
    let lo = dec(j["lo"].as_str().unwrap());
    let hi = dec(j["hi"].as_str().unwrap());
    assert!(lo <= x.lo() && x.hi() <= hi);
    let digits = j["digits"].as_u64().unwrap();
    assert!((37..=40).contains(&digits), "{j}");
    let t = x.to_literal();
    assert!(t.starts_with("0.3333333333") && t.contains(" ± "), "{t}");
    assert_eq!(Interval::from_rational(&q(5, 4)).to_literal(), "1.25 ± 0");
}
