/**
 * A small GitHub GraphQL (v4) client, the kind of library an application
 * wraps around `@octokit/graphql`: it knows three operations and returns plain
 * objects. The tests point it at a fake GitHub; in production `baseUrl` is
 * https://api.github.com (the client posts to `${baseUrl}/graphql`).
 */
import { graphql } from '@octokit/graphql';

export interface GitHubClientOptions {
  /** Where GitHub's API is; the client posts to `${baseUrl}/graphql`. */
  baseUrl: string;
  token: string;
}

export interface RepositorySummary {
  name: string;
  stars: number;
  updatedAt: string;
  url: string;
}

export interface IssueSummary {
  number: number;
  title: string;
  author: string | null;
}

const VIEWER_REPOSITORIES = /* GraphQL */ `
  query ViewerRepositories($first: Int!) {
    viewer {
      login
      repositories(first: $first, orderBy: { field: UPDATED_AT, direction: DESC }) {
        nodes {
          name
          stargazerCount
          updatedAt
          url
        }
      }
    }
  }
`;

const OPEN_ISSUES = /* GraphQL */ `
  query OpenIssues($owner: String!, $name: String!, $first: Int!) {
    repository(owner: $owner, name: $name) {
      issues(first: $first, states: OPEN) {
        totalCount
        nodes {
          number
          title
          author {
            login
          }
        }
      }
    }
  }
`;

const ADD_STAR = /* GraphQL */ `
  mutation AddStar($starrableId: ID!) {
    addStar(input: { starrableId: $starrableId }) {
      starrable {
        stargazerCount
        viewerHasStarred
      }
    }
  }
`;

interface ViewerRepositoriesData {
  viewer: {
    login: string;
    repositories: { nodes: Array<{ name: string; stargazerCount: number; updatedAt: string; url: string }> };
  };
}

interface OpenIssuesData {
  repository: {
    issues: { totalCount: number; nodes: Array<{ number: number; title: string; author: { login: string } | null }> };
  } | null;
}

interface AddStarData {
  addStar: { starrable: { stargazerCount: number; viewerHasStarred: boolean } };
}

export function createGitHubClient({ baseUrl, token }: GitHubClientOptions) {
  const request = graphql.defaults({ baseUrl, headers: { authorization: `token ${token}` } });
  return {
    /** The signed-in user's login and most recently updated repositories. */
    async viewerRepositories(first = 10): Promise<{ login: string; repositories: RepositorySummary[] }> {
      const { viewer } = await request<ViewerRepositoriesData>(VIEWER_REPOSITORIES, { first });
      return {
        login: viewer.login,
        repositories: viewer.repositories.nodes.map((node) => ({
          name: node.name,
          stars: node.stargazerCount,
          updatedAt: node.updatedAt,
          url: node.url,
        })),
      };
    },

    /** A repository's open issues (`null` when the repository does not exist). */
    async openIssues(
      owner: string,
      name: string,
      first = 20,
    ): Promise<{ total: number; issues: IssueSummary[] } | null> {
      const { repository } = await request<OpenIssuesData>(OPEN_ISSUES, { owner, name, first });
      if (repository === null) return null;
      return {
        total: repository.issues.totalCount,
        issues: repository.issues.nodes.map((node) => ({
          number: node.number,
          title: node.title,
          author: node.author?.login ?? null,
        })),
      };
    },

    /** Stars a repository (or anything starrable) by its node id; resolves with its new star count. */
    async star(starrableId: string): Promise<number> {
      const { addStar } = await request<AddStarData>(ADD_STAR, { starrableId });
      return addStar.starrable.stargazerCount;
    },
  };
}
