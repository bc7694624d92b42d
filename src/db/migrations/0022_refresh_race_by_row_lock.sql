-- A refresh token is good once. Two refreshes that race are told apart by the token's row
-- lock (auth.repo.ts rotateRefreshToken), not by a grace window: the pair sealed for that
-- window gave the same session to whoever presented a used token within 10 s.
alter table refresh_tokens drop column successor_sealed;
