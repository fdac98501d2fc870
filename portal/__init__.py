"""The respondent's page (issue 18): whoever receives a notice opens their own
page of the case with the access code printed on it, no account needed."""
