/// Sørensen (Bray–Curtis) distance between two fingerprints in the given representation:
/// Σ|a−b| / Σ(a+b) over every radio either heard, in 0…1. Two fingerprints hearing nothing are at
/// distance 1 (nothing in common), as they are in the index.
///
/// The index computes the same value faster; this form is the definition, for tests and small maps.
public func sorensenDistance<Key: Hashable>(
    _ a: [Key: Double], _ b: [Key: Double], in representation: PoweredRSSI
) -> Double {
    var difference = 0.0
    var sum = 0.0
    for key in Set(a.keys).union(b.keys) {
        let u = a[key].map(representation.value) ?? 0
        let v = b[key].map(representation.value) ?? 0
        difference += abs(u - v)
        sum += u + v
    }
    return sum > 0 ? difference / sum : 1
}
