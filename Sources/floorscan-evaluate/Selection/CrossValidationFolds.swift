import Evaluation

/// The folds of the third selection's grouped cross-validation inside one training file
/// (docs/wifi-fingerprinting.md, "Third selection"): rows are grouped so that a held-out row is new
/// to the survey as a test row is, and whole groups go to folds.
enum CrossValidationFolds {
    /// How many folds each training file is cut into.
    static let count = 5

    /// What groups a file's rows.
    enum Grouping: String, Equatable {
        /// The walk each row belongs to (WiFine's `train_traj.csv`).
        case trajectory
        /// The (USERID, PHONEID) pair, when the file has at least `count` of them.
        case userAndPhone = "user and phone"
        /// `count` consecutive blocks of rows in file order, as equal as the row count allows.
        case fileBlocks = "file blocks"
    }

    /// Each row's group number (numbered in order of first appearance) and the rule that gave them:
    /// the trajectories when given (one per row), else (USERID, PHONEID) pairs when there are at
    /// least `count`, else consecutive blocks.
    static func groups(of samples: [UJIIndoorLocSample], trajectories: [String]?) -> (grouping: Grouping, groups: [Int]) {
        if let trajectories { return (.trajectory, numbered(trajectories)) }
        struct Pair: Hashable { var user: Int, phone: Int }
        let pairs = samples.map { Pair(user: $0.userID, phone: $0.phoneID) }
        if Set(pairs).count >= count { return (.userAndPhone, numbered(pairs)) }
        return (.fileBlocks, samples.indices.map { $0 * count / samples.count })
    }

    /// Each row's fold: groups go to folds 0, 1, …, `folds` − 1, 0, … in order of first appearance.
    static func folds<Group: Hashable>(of groups: [Group], folds: Int = count) -> [Int] {
        numbered(groups).map { $0 % folds }
    }

    /// Each value's number in order of first appearance.
    static func numbered<Value: Hashable>(_ values: [Value]) -> [Int] {
        var numbers: [Value: Int] = [:]
        return values.map { value in
            if let number = numbers[value] { return number }
            numbers[value] = numbers.count
            return numbers.count - 1
        }
    }
}
