import Hummingbird

/// Where a controller registers its routes: each with the ``AccessRule`` that guards it, written
/// beside its handler, so the role table the ``AuthMiddleware`` enforces (``RoutePolicy``) is
/// made of the registrations themselves rather than listed a second time.
struct Routes {
    let router: Router<AppRequestContext>
    let policy: RoutePolicy

    @discardableResult func get(
        _ path: String, _ rule: AccessRule, use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        on(.get, path, rule, use: handler)
    }

    @discardableResult func post(
        _ path: String, _ rule: AccessRule, use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        on(.post, path, rule, use: handler)
    }

    @discardableResult func put(
        _ path: String, _ rule: AccessRule, use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        on(.put, path, rule, use: handler)
    }

    @discardableResult func patch(
        _ path: String, _ rule: AccessRule, use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        on(.patch, path, rule, use: handler)
    }

    @discardableResult func delete(
        _ path: String, _ rule: AccessRule, use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        on(.delete, path, rule, use: handler)
    }

    /// The 405 answers for the methods `path` does not serve (``Router/allowOnly(_:on:)``); they
    /// have no rule of their own, so they fail closed (``RoutePolicy``).
    func allowOnly(_ methods: [HTTPRequest.Method], on path: String) {
        router.allowOnly(methods, on: RouterPath(path))
    }

    private func on(
        _ method: HTTPRequest.Method, _ path: String, _ rule: AccessRule,
        use handler: @Sendable @escaping (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) -> Routes {
        policy.add(method, path, rule)
        router.on(RouterPath(path), method: method, use: handler)
        return self
    }
}
